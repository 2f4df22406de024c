package ecs

//go:generate go run ./internal/generate
