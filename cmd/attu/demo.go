package main

import (
	"fmt"
	"io"
)

func init() {
	register("demo", command{
		summary: "play a scripted game through an embedded mail server (not yet available)",
		run: func(args []string, stdout, stderr io.Writer) int {
			fmt.Fprintln(stderr, "attu demo: not available yet; the mail daemon and the demo arrive with a later release.")
			fmt.Fprintln(stderr, "Meanwhile try: attu map, attu map --around 2717 --radius 3, attu sandbox FILE.yaml")
			return 1
		},
	})
}
