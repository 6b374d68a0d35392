package validate

// Formats the validator has no rules of its own for, registered as the
// command registers them: their documents are checked by their readers
// (checkEntries; the entries-invalid and entry-skipped rules).
import (
	_ "github.com/feed2sitemap/feed2sitemap/formats/csv"
	_ "github.com/feed2sitemap/feed2sitemap/formats/jsonl"
)
