// Package gltf imports glTF 2.0 models (.gltf with external or data: buffers, and .glb) into plain
// Go data: the node hierarchy with local and world matrices, meshes as triangle lists (positions,
// normals, tangents, texture coordinates, vertex colours, uint32 indices), metallic-roughness materials,
// textures, images (size and encoded bytes), samplers, cameras and KHR_lights_punctual lights.
//
// Every primitive mode that makes triangles is read (TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN);
// points and lines are counted and skipped with a warning. Accessors of every component type are
// read (normalized integers scaled to [0,1] or [-1,1]), with byte strides and sparse
// substitution. Missing normals are computed smooth (area-weighted), as the OBJ reader does;
// missing tangents are computed for the primitives whose material has a normal texture.
//
// The supported extensions are KHR_lights_punctual, KHR_texture_transform,
// KHR_materials_emissive_strength and KHR_mesh_quantization. A file that requires another is
// refused naming it; one that only uses another gets a warning and the extension is ignored.
//
// Files are hostile until proven otherwise: every accessor's extent is checked against its
// buffer view and buffer before anything is allocated, counts are checked against [Limits]
// before they are multiplied, node graphs with cycles or nodes with two parents are refused, and
// URIs must stay in the model's folder (the asset path rule of package assets: no "..", no
// absolute path, no symlink out). A refusal says what and where: the file, the JSON path
// ("meshes[0].primitives[1].attributes.POSITION") and the accessor, buffer view and buffer.
//
// Importing the package registers .gltf and .glb as mesh assets of package assets ([LoadMesh]): a
// scene's Mesh component can name one, drawn as one mesh of its default scene.
package gltf
