package main

import "github.com/feed2sitemap/feed2sitemap/formats"

// formatNames returns the names of the registered formats that keep
// accepts ((*formats.Format).CanRead, say), sorted as formats.Formats
// returns them.
func formatNames(keep func(*formats.Format) bool) []string {
	var names []string
	for _, f := range formats.Formats() {
		if keep(f) {
			names = append(names, f.Name)
		}
	}
	return names
}
