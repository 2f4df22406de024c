package glrender

// GLSL 410 core sources. Attribute locations are fixed here and in
// setupInstanceAttribs / setupMeshAttribs.

// Per-vertex attribute locations.
const (
	locPos    = 0
	locNormal = 1
	locUV     = 2
	// Per-instance: the world matrix takes four consecutive locations.
	locModel = 3
	locColor = 7
	locID    = 8
	locFlags = 9
	// Per-vertex, for the meshes that have them (VERTEX_COLOR, NORMAL_MAP).
	locVertexColor = 10
	locTangent     = 11
	locUV1         = 12 // UV1
)

// meshVS draws instances: each one's world matrix, colour, id and flags come from per-instance attributes
// (meshInstanceInputs, read in meshInstanceRead).
const meshVS = `
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUV;
#ifdef VERTEX_COLOR
layout(location = 10) in vec4 aColor;
#endif
#ifdef NORMAL_MAP
layout(location = 11) in vec4 aTangent;
#endif
#ifdef UV1
layout(location = 12) in vec2 aUV1;
#endif
` + meshInstanceInputs + meshVSOutputs + `
void main() {
` + meshInstanceRead + meshVSBody

// pulledVS draws the same as meshVS without instancing (pull.go): one draw of many instances' vertices, vertex
// gl_VertexID being vertex gl_VertexID mod 2^uShift of the mesh (uMesh, two RGBA32F texels a vertex: position,
// normal, uv) of instance uBase + (gl_VertexID >> uShift) × uStride of the instance buffer (uInst, a
// viewport.Instance as INSTANCE_TEXELS RG32UI texels). On llvmpipe an instanced draw runs its vertex pipeline once
// per instance, which costs more than the few vertices of a small mesh.
const pulledVS = `
uniform samplerBuffer uMesh;
uniform int uShift;
` + pulledInstanceGLSL + meshVSOutputs + `
void main() {
	int k = gl_VertexID >> uShift;
	int v = gl_VertexID - (k << uShift);
	int t = (uBase + k * uStride) * INSTANCE_TEXELS;
	mat4 M = instMatrix(t);
	vColor = vec4(instPair(t + COLOR_TEXEL), instPair(t + COLOR_TEXEL + 1));
	uvec2 idFlags = texelFetch(uInst, t + ID_TEXEL).xy;
	vID = idFlags.x;
	vFlags = idFlags.y;
	vec4 m0 = texelFetch(uMesh, 2 * v);
	vec4 m1 = texelFetch(uMesh, 2 * v + 1);
	vec3 aPos = m0.xyz;
	vec3 aNormal = vec3(m0.w, m1.xy);
	vec2 aUV = m1.zw;
` + meshVSBody

// pulledInstanceGLSL reads instance uBase + k × uStride of the instance buffer uInst (a viewport.Instance as
// INSTANCE_TEXELS RG32UI texels from texel t = that × INSTANCE_TEXELS on): its world matrix (instMatrix); its
// colour and id with the flags are at COLOR_TEXEL and ID_TEXEL.
const pulledInstanceGLSL = `uniform usamplerBuffer uInst;
uniform int uBase;
uniform int uStride;

vec2 instPair(int t) { return uintBitsToFloat(texelFetch(uInst, t).xy); }
mat4 instMatrix(int t) {
	return mat4(vec4(instPair(t), instPair(t + 1)), vec4(instPair(t + 2), instPair(t + 3)),
		vec4(instPair(t + 4), instPair(t + 5)), vec4(instPair(t + 6), instPair(t + 7)));
}
`

// meshVSOutputs declares what meshVS and pulledVS pass on to meshFS.
const meshVSOutputs = `uniform mat4 uViewProj;

` + normalQualifier + ` out vec3 vNormal;
out vec3 vWorld;
#ifdef MATERIAL
out vec2 vUV; // only a material reads it: an output no shader reads still costs a software rasteriser its setup
#endif
flat out vec4 vColor;
flat out uint vID;
flat out uint vFlags;
flat out uint vMirror; // 1 when M mirrors (negative determinant): its triangles' winding is turned around
#ifdef VERTEX_COLOR
out vec4 vVertColor;
#endif
#ifdef NORMAL_MAP
out vec4 vTangent;
#endif
#ifdef UV1
out vec2 vUV1;
#endif
`

// meshVSBody ends meshVS and pulledVS: the vertex aPos, aNormal of an instance with world matrix M (aColor,
// aTangent and aUV1 only in meshVS: a mesh with them is never pulled).
const meshVSBody = `	vec4 w = M * vec4(aPos, 1.0);
	// Normals by the cofactor matrix: det(M)·inverse-transpose, right for
	// non-uniform scale without an inverse per vertex.
	mat3 m = mat3(M);
	mat3 cof = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
	float det = dot(m[0], cof[0]);
	vMirror = det < 0.0 ? 1u : 0u;
	vNormal = cof * aNormal * (det < 0.0 ? -1.0 : 1.0);
	vWorld = w.xyz;
#ifdef MATERIAL
	vUV = aUV;
#endif
#ifdef VERTEX_COLOR
	vVertColor = aColor;
#endif
#ifdef NORMAL_MAP
	vTangent = vec4(m * aTangent.xyz, det < 0.0 ? -aTangent.w : aTangent.w); // a mirror turns the bitangent
#endif
#ifdef UV1
	vUV1 = aUV1;
#endif
	gl_Position = uViewProj * w;
}
`

// normalQualifier makes vNormal flat (the provoking vertex's) for meshes drawn with FLAT_NORMAL defined.
const normalQualifier = `
#ifdef FLAT_NORMAL
flat
#endif
`

// meshInstanceInputs declares meshVS's per-instance attributes.
const meshInstanceInputs = `layout(location = 3) in vec4 iModel0;
layout(location = 4) in vec4 iModel1;
layout(location = 5) in vec4 iModel2;
layout(location = 6) in vec4 iModel3;
layout(location = 7) in vec4 iColor;
layout(location = 8) in uint iID;
layout(location = 9) in uint iFlags;
`

// meshInstanceRead reads them into M, vColor, vID and vFlags.
const meshInstanceRead = `	mat4 M = mat4(iModel0, iModel1, iModel2, iModel3);
	vColor = iColor;
	vID = iID;
	vFlags = iFlags;
`

// meshFS lights with the scene's lights (uLightCount of them: directional,
// point and spot, with range and cones; the default rig is one directional
// light, drawn with ONE_LIGHT defined), a sky/ground ambient and a little specular, in linear space (colours are sRGB on the way in and out,
// with gamma 2 — squares and square roots — which costs a fraction of pow()
// on a software rasteriser and looks the same).
// With a material (MATERIAL defined) the surface is its base colour (factor ×
// texture, linear) tinted by the instance's colour, cut out (mask) or
// blended by its alpha, and lit by a simple metallic-roughness model:
// Lambert diffuse of the non-metal part, a normalised Blinn-Phong lobe whose
// width follows the roughness, Schlick's Fresnel, plus emission. The other defines add what few meshes have:
// VERTEX_COLOR multiplies the mesh's linear vertex colours into the surface's colour; with a material,
// NORMAL_MAP bends the normal by a tangent-space normal texture (its X and Y scaled), OCCLUSION_MAP darkens the
// ambient light by an occlusion texture (red, by its strength), EMISSIVE_MAP multiplies the emission by an
// emissive texture; UV1 reads the textures of the slots uUV1Slots names with the mesh's second texture
// coordinates.
// It writes the entity id, with viewport.FlagSelected in bit 31, to the R32UI
// attachment; the selection is tinted and outlined afterwards (composeFS).
const meshFS = `
` + normalQualifier + ` in vec3 vNormal;
in vec3 vWorld;
#ifdef MATERIAL
in vec2 vUV;
#endif
flat in vec4 vColor;
flat in uint vID;
flat in uint vFlags;
flat in uint vMirror;
#ifdef VERTEX_COLOR
in vec4 vVertColor;
#endif
#ifdef NORMAL_MAP
in vec4 vTangent;
uniform sampler2D uNormTex;
uniform vec3 uNormUV0;
uniform vec3 uNormUV1;
uniform float uNormScale;
#endif
#ifdef OCCLUSION_MAP
uniform sampler2D uOccTex;
uniform vec3 uOccUV0;
uniform vec3 uOccUV1;
uniform float uOccStrength;
#endif
#ifdef EMISSIVE_MAP
uniform sampler2D uEmTex; // SRGB8_ALPHA8: read linear
uniform vec3 uEmUV0;
uniform vec3 uEmUV1;
#endif
#ifdef UV1
in vec2 vUV1;
uniform int uUV1Slots; // bit k: the texture of slot k reads vUV1
#endif

` + lightingGLSL + `
#ifdef MATERIAL
uniform vec4 uBaseColor;  // linear RGBA factor
uniform vec2 uMetalRough; // metallic, roughness
uniform vec3 uEmissive;   // linear, times its strength
uniform vec2 uAlpha;      // mode (0 opaque, 1 mask, 2 blend), cutoff
uniform bool uTexOn;
uniform sampler2D uBaseTex; // SRGB8_ALPHA8: read linear
uniform vec3 uUV0;        // the texture transform's rows
uniform vec3 uUV1;
uniform bool uMRTexOn;
uniform sampler2D uMRTex; // roughness in green, metalness in blue
uniform vec3 uMRUV0;
uniform vec3 uMRUV1;
#endif

layout(location = 0) out vec4 oColor;
layout(location = 1) out uint oID;

#ifdef MATERIAL
// uvOf is the texture coordinates of the texture of slot k through its transform's rows.
vec2 uvOf(vec3 row0, vec3 row1, int k) {
#ifdef UV1
	vec3 uv = vec3((uUV1Slots & (1 << k)) != 0 ? vUV1 : vUV, 1.0);
#else
	vec3 uv = vec3(vUV, 1.0);
#endif
	return vec2(dot(row0, uv), dot(row1, uv));
}
#endif


void main() {
	vec3 n = normalize(vNormal);
#ifdef NORMAL_MAP
	vec3 tan = normalize(vTangent.xyz - n * dot(n, vTangent.xyz));
	vec3 bitan = cross(n, tan) * vTangent.w;
#endif
	if (gl_FrontFacing == (vMirror != 0u)) n = -n; // open meshes: light the inside too (a mirrored one's front is wound clockwise)
#ifdef NORMAL_MAP
	{
		if (gl_FrontFacing == (vMirror != 0u)) { tan = -tan; bitan = -bitan; }
		vec3 tn = texture(uNormTex, uvOf(uNormUV0, uNormUV1, 2)).xyz * 2.0 - 1.0;
		tn.xy *= uNormScale;
		n = normalize(tan * tn.x + bitan * tn.y + n * tn.z);
	}
#endif
	vec3 v = normalize(uEye - vWorld);
	vec3 amb = mix(uGround, uSky, n.y * 0.5 + 0.5);
	vec3 c;
	float alpha = 1.0;
#ifdef MATERIAL
	{
		vec4 base = uBaseColor * vec4(toLinear(clamp(vColor.rgb, 0.0, 1.0)), vColor.a);
#ifdef VERTEX_COLOR
		base *= vVertColor;
#endif
		if (uTexOn) base *= texture(uBaseTex, uvOf(uUV0, uUV1, 0));
		alpha = base.a;
		if (uAlpha.x == 1.0 && alpha < uAlpha.y) discard;
		if (uAlpha.x != 2.0) alpha = 1.0;
		float metal = uMetalRough.x;
		float r = uMetalRough.y;
		if (uMRTexOn) {
			vec4 mr = texture(uMRTex, uvOf(uMRUV0, uMRUV1, 1));
			metal *= mr.b;
			r *= mr.g;
		}
		r = max(r, 0.03);
		vec3 f0 = mix(vec3(0.04), base.rgb, metal);
		float fw = 1.0 - max(dot(n, v), 0.0);
		float fw2 = fw * fw;
		vec3 fres = f0 + (1.0 - f0) * (fw2 * fw2 * fw) * (1.0 - r);
		float shin = min(2.0 / (r * r * r * r) - 2.0, 2048.0);
		vec3 kd = base.rgb * (1.0 - metal);
		float ks = mix(0.25, 1.0, metal);
#ifdef OCCLUSION_MAP
		amb *= 1.0 + uOccStrength * (texture(uOccTex, uvOf(uOccUV0, uOccUV1, 3)).r - 1.0);
#endif
		vec3 em = uEmissive;
#ifdef EMISSIVE_MAP
		em *= texture(uEmTex, uvOf(uEmUV0, uEmUV1, 4)).rgb;
#endif
		c = (kd + fres * ks * mix(1.0, 0.6, r)) * amb + em;
		LIGHTS(vWorld, {
			float diff = max(dot(n, l), 0.0);
			float spec = (shin + 2.0) / 4.0 * pow(max(dot(n, normalize(l + v)), 0.0), shin) * diff;
			c += lc * (kd * diff + fres * ks * spec);
		})
	}
#else
	{
		vec3 base = toLinear(clamp(vColor.rgb, 0.0, 1.0));
#ifdef VERTEX_COLOR
		base *= vVertColor.rgb;
#endif
		c = shade(base, n, v, amb, vWorld);
	}
#endif
	oColor = vec4(toSRGB(c), alpha);
	oID = vID | ((vFlags & 1u) != 0u ? 0x80000000u : 0u); // drawn selected whatever the selection
}
`

// fullscreenVS draws one triangle covering the viewport, no buffers needed.
const fullscreenVS = `
void main() {
	vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;
	gl_Position = vec4(p, 0.0, 1.0);
}
`

// gridVS is the full-screen triangle of the grid pass: it unprojects its
// corners to the near and far planes; the homogeneous points are linear in
// screen space, so interpolating them (noperspective) gives each pixel's
// view ray exactly, without a matrix product per pixel.
const gridVS = `
uniform mat4 uInvViewProj;
noperspective out vec4 vNear;
noperspective out vec4 vFar;
void main() {
	vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;
	vNear = uInvViewProj * vec4(p, -1.0, 1.0);
	vFar = uInvViewProj * vec4(p, 1.0, 1.0);
	gl_Position = vec4(p, 0.0, 1.0);
}
`

// gridFS is the infinite ground grid on y = 0: each fragment intersects its
// view ray with the plane, draws anti-aliased 1- and 10-unit lines
// (fwidth), the X axis (z = 0) red and the Z axis (x = 0) blue, fades them
// with distance and at grazing angles, and writes the plane's depth so
// objects hide it. It runs in two passes (uPass): 0 over everything the plane
// is in front of, with the lines dimmed (uDim), so that geometry below the
// ground stays clear instead of washed out behind the grid; 1 over the
// background only (depth test EQUAL at the cleared depth), adding what makes
// the lines there as strong as in one pass. The plane's depth is pushed back
// a little (uBias, relative to the distance) so that a floor lying at y = 0
// hides the grid cleanly instead of z-fighting with it.
const gridFS = `
noperspective in vec4 vNear;
noperspective in vec4 vFar;
uniform vec4 uClipZ;      // row 2 of the view-projection matrix
uniform vec4 uClipW;      // row 3
uniform vec3 uEye;
uniform float uFade;      // distance where the grid has faded out
uniform vec3 uMinor;
uniform vec3 uMajor;
uniform int uPass;        // 0: dimmed, depth-tested against the scene; 1: the background's share
uniform float uDim;       // alpha factor of pass 0
uniform float uBias;      // relative push of the plane's depth away from the eye
layout(location = 0) out vec4 oColor;

float lines(vec2 coord, float width) {
	vec2 d = fwidth(coord);
	vec2 g = abs(fract(coord - 0.5) - 0.5) / max(d, vec2(1e-6));
	return 1.0 - min(min(g.x, g.y) / width, 1.0);
}

void main() {
	vec3 n = vNear.xyz / vNear.w;
	vec3 f = vFar.xyz / vFar.w;
	float t = -n.y / (f.y - n.y);
	if (!(t > 0.0 && t <= 1.0)) discard;
	vec4 p = vec4(n + t * (f - n), 1.0);
	vec4 q = vec4(p.xyz + (p.xyz - uEye) * uBias, 1.0);
	gl_FragDepth = uPass == 1 ? 1.0 : clamp(dot(uClipZ, q) / dot(uClipW, q) * 0.5 + 0.5, 0.0, 1.0);

	vec2 c = p.xz;
	float minor = lines(c, 1.0);
	float major = lines(c / 10.0, 1.5);
	vec2 d = fwidth(c);
	float axisX = 1.0 - min(abs(c.y) / max(d.y, 1e-6) / 1.5, 1.0); // z = 0: the X axis
	float axisZ = 1.0 - min(abs(c.x) / max(d.x, 1e-6) / 1.5, 1.0); // x = 0: the Z axis

	vec3 col = uMinor;
	float a = minor * 0.35;
	col = mix(col, uMajor, major); a = max(a, major * 0.6);
	col = mix(col, vec3(0.90, 0.20, 0.22), axisX); a = max(a, axisX * 0.9);
	col = mix(col, vec3(0.22, 0.38, 0.95), axisZ); a = max(a, axisZ * 0.9);

	vec3 toEye = uEye - p.xyz;
	float dist = length(toEye);
	float fade = 1.0 - smoothstep(uFade * 0.3, uFade, dist);
	float grazing = smoothstep(0.0, 0.12, abs(toEye.y) / dist);
	a *= fade * grazing;
	float dimmed = a * uDim;
	if (uPass == 1) a = (a - dimmed) / (1.0 - dimmed); // over the background: dimmed, then this, make a
	else a = dimmed;
	if (a <= 0.002) discard;
	oColor = vec4(col, a);
}
`

// composeFS makes the image shown from a complete picture (uColor, uIDs) and the selection (uSel: a byte per
// entity id, 4096 ids a row; bit 31 of an id marks an instance drawn selected whatever the selection). With TINT
// defined it copies the picture with selected pixels tinted towards the selection colour (in linear space), and
// writes each pixel's id where it is selected, 0 elsewhere (oSel); without, it draws the outline from those
// (uSelIDs): a pixel that has a selected entity other than its own within two pixels takes the selection colour
// (blended, scissored to the selection's screen rectangle), the others are discarded.
const composeFS = `
uniform usampler2D uIDs;
uniform vec3 uSelectColor;
layout(location = 0) out vec4 oColor;
#ifdef TINT
uniform sampler2D uColor;
uniform usampler2D uSel;
uniform int uSelRows;
layout(location = 1) out uint oSel;

bool selected(uint id) {
	if ((id & 0x80000000u) != 0u) return true;
	if (id == 0u) return false;
	int row = int(id >> 12u);
	if (row >= uSelRows) return false;
	return texelFetch(uSel, ivec2(int(id & 4095u), row), 0).r != 0u;
}
#else
uniform usampler2D uSelIDs;
#endif

void main() {
	ivec2 px = ivec2(gl_FragCoord.xy);
	uint id = texelFetch(uIDs, px, 0).r;
#ifdef TINT
	vec3 c = texelFetch(uColor, px, 0).rgb;
	bool sel = selected(id);
	if (sel) c = sqrt(mix(c * c, uSelectColor * uSelectColor, 0.2));
	oColor = vec4(c, 1.0);
	oSel = sel ? id : 0u;
#else
	ivec2 hi = textureSize(uIDs, 0) - 1;
	float edge = 0.0;
	for (int y = -2; y <= 2; y++) {
		for (int x = -2; x <= 2; x++) {
			if (x * x + y * y > 5) continue;
			uint n = texelFetch(uSelIDs, clamp(px + ivec2(x, y), ivec2(0), hi), 0).r;
			if (n != 0u && n != id) edge = 1.0;
		}
	}
	if (edge == 0.0) discard;
	oColor = vec4(uSelectColor, edge);
#endif
}
`

// lightingGLSL is the lighting meshFS and pointVS share: the scene's lights, the ambient, sRGB and the lit colour
// of a surface in the instances' colours (shade).
const lightingGLSL = `uniform int uLightCount;
uniform vec4 uLightPos[8];   // position, kind (0 directional, 1 point, 2 spot)
uniform vec3 uLightDir[8];   // unit vector the light shines along
uniform vec3 uLightColor[8]; // linear colour × intensity
uniform vec3 uLightCone[8];  // range (0: unlimited), cos inner, cos outer
uniform vec3 uSky;        // ambient from above
uniform vec3 uGround;     // ambient from below
uniform vec3 uEye;

vec3 toLinear(vec3 c) { return c * c; }
vec3 toSRGB(vec3 c) { return sqrt(max(c, 0.0)); }

// light returns the light i sheds on a point at p (its colour, attenuated) and the unit vector towards it.
vec3 light(int i, vec3 p, out vec3 l) {
	vec4 lp = uLightPos[i];
	if (lp.w == 0.0) {
		l = -uLightDir[i];
		return uLightColor[i];
	}
	vec3 d = lp.xyz - p;
	float d2 = max(dot(d, d), 1e-4);
	l = d * inversesqrt(d2);
	float att = 1.0 / d2;
	vec3 cone = uLightCone[i];
	if (cone.x > 0.0) {
		float q = d2 / (cone.x * cone.x);
		float w = clamp(1.0 - q * q, 0.0, 1.0);
		att *= w * w;
	}
	if (lp.w == 2.0) att *= smoothstep(cone.z, max(cone.y, cone.z + 1e-4), dot(-l, uLightDir[i]));
	return uLightColor[i] * att;
}

// LIGHTS(p, body) runs body for each light with l, the unit vector towards it, and lc, the light it sheds on
// point p; with ONE_LIGHT for the one directional light, the first, without a loop.
#ifdef ONE_LIGHT
#define LIGHTS(p, body) { vec3 l = -uLightDir[0]; vec3 lc = uLightColor[0]; body }
#else
#define LIGHTS(p, body) for (int i = 0; i < uLightCount; i++) { vec3 l; vec3 lc = light(i, p, l); body }
#endif

// shade is the linear colour of a surface of linear colour base at p, of unit normal n, seen along unit vector v
// (towards the eye), in ambient light amb.
vec3 shade(vec3 base, vec3 n, vec3 v, vec3 amb, vec3 p) {
	vec3 c = base * amb;
	LIGHTS(p, {
		float diff = max(dot(n, l), 0.0);
		float s2 = max(dot(n, normalize(l + v)), 0.0);
		s2 *= s2; // ^48 by squaring: a fraction of pow()'s exp2(log2) on a software rasteriser
		float s4 = s2 * s2;
		float s16 = s4 * s4;
		s16 *= s16;
		c += base * lc * diff + lc * (s16 * s16 * s16 * 0.25);
	})
	return c;
}
`
