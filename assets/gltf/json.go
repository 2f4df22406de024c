package gltf

import "encoding/json"

// The glTF JSON as the file spells it. Optional numbers are pointers where their default is not
// zero or where "absent" differs from 0 (an index).

type document struct {
	ExtensionsUsed     []string          `json:"extensionsUsed"`
	ExtensionsRequired []string          `json:"extensionsRequired"`
	Asset              *assetInfo        `json:"asset"`
	Scene              *int              `json:"scene"`
	Scenes             []sceneJSON       `json:"scenes"`
	Nodes              []nodeJSON        `json:"nodes"`
	Meshes             []meshJSON        `json:"meshes"`
	Accessors          []accessorJSON    `json:"accessors"`
	BufferViews        []bufferViewJSON  `json:"bufferViews"`
	Buffers            []bufferJSON      `json:"buffers"`
	Materials          []materialJSON    `json:"materials"`
	Textures           []textureJSON     `json:"textures"`
	Images             []imageJSON       `json:"images"`
	Samplers           []samplerJSON     `json:"samplers"`
	Cameras            []cameraJSON      `json:"cameras"`
	Extensions         map[string]rawExt `json:"extensions"`
}

type rawExt = json.RawMessage

type assetInfo struct {
	Version    string `json:"version"`
	MinVersion string `json:"minVersion"`
}

type sceneJSON struct {
	Name  string `json:"name"`
	Nodes []int  `json:"nodes"`
}

type nodeJSON struct {
	Name        string            `json:"name"`
	Children    []int             `json:"children"`
	Mesh        *int              `json:"mesh"`
	Camera      *int              `json:"camera"`
	Matrix      []float32         `json:"matrix"`
	Translation []float32         `json:"translation"`
	Rotation    []float32         `json:"rotation"`
	Scale       []float32         `json:"scale"`
	Extensions  map[string]rawExt `json:"extensions"`
}

type meshJSON struct {
	Name       string          `json:"name"`
	Primitives []primitiveJSON `json:"primitives"`
}

type primitiveJSON struct {
	Attributes map[string]int `json:"attributes"`
	Indices    *int           `json:"indices"`
	Material   *int           `json:"material"`
	Mode       *int           `json:"mode"`
}

type accessorJSON struct {
	BufferView    *int        `json:"bufferView"`
	ByteOffset    int64       `json:"byteOffset"`
	ComponentType int         `json:"componentType"`
	Normalized    bool        `json:"normalized"`
	Count         int64       `json:"count"`
	Type          string      `json:"type"`
	Sparse        *sparseJSON `json:"sparse"`
}

type sparseJSON struct {
	Count   int64 `json:"count"`
	Indices struct {
		BufferView    int   `json:"bufferView"`
		ByteOffset    int64 `json:"byteOffset"`
		ComponentType int   `json:"componentType"`
	} `json:"indices"`
	Values struct {
		BufferView int   `json:"bufferView"`
		ByteOffset int64 `json:"byteOffset"`
	} `json:"values"`
}

type bufferViewJSON struct {
	Buffer     int   `json:"buffer"`
	ByteOffset int64 `json:"byteOffset"`
	ByteLength int64 `json:"byteLength"`
	ByteStride int64 `json:"byteStride"`
}

type bufferJSON struct {
	URI        *string `json:"uri"`
	ByteLength int64   `json:"byteLength"`
}

type textureInfoJSON struct {
	Index      int               `json:"index"`
	TexCoord   int               `json:"texCoord"`
	Scale      *float32          `json:"scale"`
	Strength   *float32          `json:"strength"`
	Extensions map[string]rawExt `json:"extensions"`
}

type materialJSON struct {
	Name string `json:"name"`
	PBR  *struct {
		BaseColorFactor          []float32        `json:"baseColorFactor"`
		BaseColorTexture         *textureInfoJSON `json:"baseColorTexture"`
		MetallicFactor           *float32         `json:"metallicFactor"`
		RoughnessFactor          *float32         `json:"roughnessFactor"`
		MetallicRoughnessTexture *textureInfoJSON `json:"metallicRoughnessTexture"`
	} `json:"pbrMetallicRoughness"`
	NormalTexture    *textureInfoJSON  `json:"normalTexture"`
	OcclusionTexture *textureInfoJSON  `json:"occlusionTexture"`
	EmissiveTexture  *textureInfoJSON  `json:"emissiveTexture"`
	EmissiveFactor   []float32         `json:"emissiveFactor"`
	AlphaMode        *string           `json:"alphaMode"`
	AlphaCutoff      *float32          `json:"alphaCutoff"`
	DoubleSided      bool              `json:"doubleSided"`
	Extensions       map[string]rawExt `json:"extensions"`
}

type textureJSON struct {
	Name    string `json:"name"`
	Source  *int   `json:"source"`
	Sampler *int   `json:"sampler"`
}

type imageJSON struct {
	Name       string  `json:"name"`
	URI        *string `json:"uri"`
	MimeType   string  `json:"mimeType"`
	BufferView *int    `json:"bufferView"`
}

type samplerJSON struct {
	Name      string `json:"name"`
	MagFilter int    `json:"magFilter"`
	MinFilter int    `json:"minFilter"`
	WrapS     *int   `json:"wrapS"`
	WrapT     *int   `json:"wrapT"`
}

type cameraJSON struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Perspective *struct {
		AspectRatio float32  `json:"aspectRatio"`
		YFov        float32  `json:"yfov"`
		ZFar        float32  `json:"zfar"`
		ZNear       *float32 `json:"znear"`
	} `json:"perspective"`
	Orthographic *struct {
		XMag  float32  `json:"xmag"`
		YMag  float32  `json:"ymag"`
		ZFar  *float32 `json:"zfar"`
		ZNear *float32 `json:"znear"`
	} `json:"orthographic"`
}

type lightsJSON struct {
	Lights []struct {
		Name      string    `json:"name"`
		Type      string    `json:"type"`
		Color     []float32 `json:"color"`
		Intensity *float32  `json:"intensity"`
		Range     *float32  `json:"range"`
		Spot      *struct {
			InnerConeAngle *float32 `json:"innerConeAngle"`
			OuterConeAngle *float32 `json:"outerConeAngle"`
		} `json:"spot"`
	} `json:"lights"`
}

type nodeLightJSON struct {
	Light *int `json:"light"`
}

type textureTransformJSON struct {
	Offset   []float32 `json:"offset"`
	Rotation float32   `json:"rotation"`
	Scale    []float32 `json:"scale"`
	TexCoord *int      `json:"texCoord"`
}

type emissiveStrengthJSON struct {
	EmissiveStrength *float32 `json:"emissiveStrength"`
}
