package datenames_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/internal/datenames"
)

// TestForeignEnglishDates: English day, month and zone names are not
// foreign (formats' TestForeignDateNames checks the foreign ones through
// ParseLastMod's errors).
func TestForeignEnglishDates(t *testing.T) {
	assert.Nil(t, datenames.Foreign("Wed, 08 May 2024 10:00:00 CEST"))
	assert.Nil(t, datenames.Foreign("Wednesday, 8 Sept 2024"))
}
