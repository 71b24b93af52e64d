// Traefik's `dynamic/ext` module: its go.mod replaces it with the nested folder pkg/config/dynamic/ext, which the
// module zip leaves out (a folder with a go.mod of its own) and the module proxy does not serve. Upstream's file,
// the same in every v3.7 release: empty extension points of its open-source build.
module github.com/traefik/traefik/dynamic/ext

go 1.24.0
