package webhook

import "time"

// Side is one article of a copy event.
type Side struct {
	ID          int64     `json:"id"`
	Source      string    `json:"source"`
	Owner       string    `json:"owner"`
	Title       string    `json:"title"`
	URL         string    `json:"url"`
	PublishedAt time.Time `json:"published_at"`
}

// Event is one row of the outbox: Copy links to Original, crediting it or
// not. Title, URL and PublishedAt are empty for an article deleted since.
type Event struct {
	ID        int64
	Copy      Side
	Original  Side
	Credit    string
	ClusterID int64
	CreatedAt time.Time
}

// SameOwner says whether the copy and the original are one owner's (a
// portal's sections).
func (e Event) SameOwner() bool { return e.Copy.Owner == e.Original.Owner }

// Delivery is one event to one subscription, as claimed for an attempt.
type Delivery struct {
	ID           string // the delivery id, the same on every attempt
	Subscription string
	Attempts     int // claimed so far, this one included
	Event        Event
}

// Status is a delivery as the editors see it: pending, delivered or given
// up, and the last attempt's outcome.
type Status struct {
	ID            string
	Subscription  string
	EventID       int64
	CopyID        int64
	CopySource    string
	OriginalID    int64
	OriginalSrc   string
	Credit        string
	ClusterID     int64
	Attempts      int
	CreatedAt     time.Time
	NextAttemptAt time.Time
	DeliveredAt   *time.Time
	GaveUpAt      *time.Time
	LastStatus    int
	LastError     string
}
