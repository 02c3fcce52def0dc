module github.com/attu-pbem/attu

go 1.26.0

require (
	go.etcd.io/bbolt v1.5.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/image v0.47.0
)

require golang.org/x/sys v0.49.0 // indirect
