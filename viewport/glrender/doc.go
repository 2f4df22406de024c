// Package glrender is the editor's OpenGL 4.1 core renderer, and the only
// package of the project that imports go-gl.
//
// A [Renderer] draws a [viewport.DrawList] seen by a [viewport.Camera] into
// its own framebuffer object:
//
//   - one instanced draw call per mesh (glDrawElementsInstanced; the
//     per-instance buffer holds [viewport.Instance] as is: world matrix,
//     colour, entity id, flags, with attribute divisor 1); the instances of
//     small meshes (the built-in cube and plane) are drawn on a software
//     renderer without instancing instead, the vertex shader reading them from the same
//     buffer as a buffer texture (llvmpipe runs its vertex pipeline once per
//     instance of an instanced draw), and flat-shaded meshes share their
//     vertices between faces, the normal taken flat from each triangle's
//     last vertex (the cube has 8 vertices instead of 24);
//   - the instance buffers are updated incrementally: only the dirty ranges
//     the DrawList recorded are sent with glBufferSubData (a batch that
//     outgrows its buffer is reallocated at double size and sent whole);
//     [Stats] counts the bytes;
//   - the scene's lights (directional, point and spot with range and cones;
//     at most 8 a picture: the directional ones, then the brightest at the
//     eye), or without any a directional key light, with a sky/ground
//     ambient, in linear space;
//   - materials ([viewport.Material]: glTF metallic-roughness): base colour
//     factor × instance colour × base colour texture (SRGB8_ALPHA8,
//     mipmapped, the sampler's wrap and filters, the texture transform), the
//     metallic-roughness texture, emission (× the emissive texture), the
//     normal map (scaled; the mesh's tangents), the occlusion texture (by
//     its strength, on the ambient light), alpha mask (cut out) and blend
//     (drawn after the rest, far to near, without depth writes), single- or
//     double-sided; batches are by mesh and material, so the instances of
//     one textured model stay one instanced draw a chunk;
//   - a mesh's vertex colours multiply its colour (instance or material);
//     a texture reads the mesh's first or second texture coordinates, as
//     it names;
//   - shader variants (variant.go): what only some meshes and materials
//     have (vertex colours, normal, occlusion and emissive maps, second
//     texture coordinates) is compiled
//     in programs of their own, made when first drawn, so that the rest run
//     the shaders they ran without them; one directional light (the default
//     rig) is drawn by variants without the loop over the lights, which a
//     software rasteriser pays for in every pixel;
//   - instances of a mesh that is exactly a box (the built-in cube), in
//     their colours, drawn small on the screen (a chunk wholly in view
//     whose biggest instance projects to at most about 10 pixels at the
//     chunk's nearest depth, decided on the CPU for each chunk of each
//     picture) are drawn as points (points.go): one vertex an instance,
//     the point as big as the box's projection, each of its pixels
//     casting its ray at the box and taking the lit colour of the face
//     it enters (else discarded), at the depth of the box's centre; the
//     picture is the triangles' but for a few pixels on the boxes' edges,
//     and zoomed in nothing changes (TestPointsDrawAsCubes,
//     TestPointsZoomedIn). On both paths: a GPU gains by it too. Copies of
//     an instance drawn before in the picture (the same matrix: a field set
//     on a whole grid stacks its cubes) are left out of the points of a
//     chunk with copies of its own (copies.go): they would lose every pixel;
//   - an infinite ground grid (a full-screen pass that intersects each
//     pixel's view ray with y = 0) with 1- and 10-unit lines, the X axis red
//     and the Z axis blue, fading with distance;
//   - selected instances are tinted and outlined (a pass over the id
//     attachment, scissored to the selection's screen rectangle, only when
//     something is selected);
//   - the framebuffer has an RGBA8 colour attachment, an R32UI entity-id
//     attachment (0 = nothing) and depth; [Renderer.ReadID] and
//     [Renderer.ReadIDs] read it back for click and box picking;
//   - pictures that cost nothing to show again: the picture a big change
//     replaced is kept (one for each list drawn, the scene's and a preview's)
//     and shown again, without drawing, when its list comes back to what it
//     drew ([viewport.DrawList.ContentHash]: the undo of a delete, a redo);
//     and [Renderer.Adopt] takes the grid dialog's preview picture as the
//     scene's once the grid is spawned, renaming its ids.
//
// # Parts
//
// A [Renderer] is three parts. The picture cache (picture.go, with
// picture_keep.go for kept and adopted pictures, picture_patch.go for
// patches and occlude.go for the occlusion queries) is asked for a list
// seen by a camera with [viewport.DrawOptions], and decides how the image
// comes to show it: re-tint the picture on screen (a selection change),
// show a kept one again, adopt a preview's, patch the one on screen, or
// draw it whole — over several calls within a budget, or thinned while the
// view moves. The drawer (drawer.go, upload.go, pull.go, flat.go,
// points.go, shaders.go) draws instances and the grid — programs, uniforms,
// mesh and instance uploads, draw calls — and knows nothing of pictures: a
// new way to draw a mesh (materials, textures, lights) changes only it. The
// composer (compose.go) makes the image shown from the front picture and
// the selection. The cache's framebuffers are its targets (targets.go); the
// GPU state of the lists drawn last is lists.go.
//
// # Software renderers and GPUs
//
// The speed work — pictures drawn over several frames within a budget,
// thinned pictures, patches, kept and adopted pictures, pulled vertices,
// the chunks of a whole picture past the 32 nearest drawn on their boxes'
// occlusion queries (occlude.go: glBeginConditionalRender, asked in waves
// so that llvmpipe waits for their answers once a wave; a box tests the
// picture's own depth, so the picture is the same) — is for software
// renderers (Mesa's llvmpipe draws 100,000 cubes in hundreds of
// milliseconds). A switch decided once in [New] from the context's
// GL_RENDERER ([IsSoftwareRenderer]; the environment variable
// [SoftwareEnv], VOLTEX_SOFTWARE_GL=0 or 1, overrides it;
// [Renderer.Software] reports it) turns them on. On a GPU every picture is
// drawn whole, into the picture on screen, in the call that asks for it: no
// wait for the GPU (the software path's budgeted steps measure their time
// with fence waits, and its occlusion queries' conditions wait for their
// answers), no readback but for picking. Frustum culling, instancing,
// shared flat vertices, small boxes drawn as points and the re-tint of a
// selection change serve both.
//
// The output texture ([Renderer.Texture]) is what the editor shows with
// giu; like every GL texture its row 0 is the bottom, so show it with
// flipped V. [Renderer.ReadImage] returns it the right way up.
//
// # Contexts and threads
//
// In the editor, giu/GLFW owns the context: call [InitCurrentContext] on
// the UI loop thread once the window exists (it loads go-gl's functions:
// no other package imports go-gl), then [New], and use the renderer only on
// that thread (methods panic elsewhere). Headless — for `voltex-editor
// render`, thumbnails and tests, with no display server at all —
// [NewHeadless] gives an EGL surfaceless context (sub-package headless)
// with go-gl loaded through eglGetProcAddress; run GL work inside its Do.
// [RenderToImage] does all of that for one picture.
//
// May import: go-gl (gl v4.1-core, mathgl), cgo through headless (libEGL),
// viewport, assets, ecs/scene (the material's enums) and the standard library.
package glrender
