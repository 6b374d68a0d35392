package indexnow

import (
	"context"
	"time"
)

// RecordWaits makes c note its waits before retries in *waits instead of
// sleeping, for a test.
func RecordWaits(c *Client, waits *[]time.Duration) {
	c.sleep = func(_ context.Context, d time.Duration) error {
		*waits = append(*waits, d)
		return nil
	}
}
