// Package gltfprefab places glTF models (.gltf, .glb) as prefabs: importing it registers both
// extensions with package serialize ([serialize.RegisterPrefabFormat]), so that a scene's "prefab"
// key can name a model and its instances are made from the model's nodes, keep their overrides,
// follow the file when it is exported again and unpack like any prefab.
//
// [Build] turns an imported model into the template's entities: one per node of the model's
// default scene (every root node's tree when it names none), with its Name, its parent, a
// Transform from its TRS or matrix, a Camera (KHR cameras) and a Light (KHR_lights_punctual). A
// node with a mesh of one primitive carries that primitive's Mesh and Material; a node whose mesh
// has several gets a child entity per primitive. Mesh references name the primitive inside the
// model ("ship.glb#mesh/Hull/0", see assets/gltf.MeshPart); textures name the image file a .gltf
// refers to, or the image inside the model ("ship.glb#image/0").
//
// Scene ids are made from the path of node names from the root ("Ship/Mast/Flag"), so that a
// re-export that reorders nodes, meshes or materials keeps every instance's overrides on the same
// entities; unnamed nodes are named by what they hold (their mesh, camera or light, else "node"),
// and siblings sharing a name by their rank among those siblings.
package gltfprefab
