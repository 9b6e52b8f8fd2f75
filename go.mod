module github.com/robowatch/robowatch

go 1.26.8

require (
	github.com/fsnotify/fsnotify v1.10.1
	github.com/mattn/go-runewidth v0.0.31
	github.com/miekg/dns v1.1.73
	github.com/olekukonko/tablewriter v1.1.5
	github.com/spf13/pflag v1.0.10
	github.com/ua-parser/uap-go v0.0.0-20260529044130-17c35e68e58c
	golang.org/x/net v0.57.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/clipperhouse/displaywidth v0.10.0 // indirect
	github.com/clipperhouse/uax29/v2 v2.6.0 // indirect
	github.com/fatih/color v1.18.0 // indirect
	github.com/hashicorp/golang-lru v1.0.2 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/olekukonko/cat v0.0.0-20250911104152-50322a0618f6 // indirect
	github.com/olekukonko/errors v1.2.0 // indirect
	github.com/olekukonko/ll v0.1.6 // indirect
)
