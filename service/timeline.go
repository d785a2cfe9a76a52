package service

import (
	"context"
	"time"
)

// A cluster's timeline: how many of its members each source published in
// each hour of its life, counted by the database (an aggregate over the
// cluster's index, whatever its size), so that a story's spread over days
// reads as a chart rather than a table of members.

// MaxTimelineRows bounds the (hour, source) counts a timeline reads: a
// cluster larger than that reads its earliest hours only, and says so.
const MaxTimelineRows = 20000

// TimelineCount is how many members of a cluster one source published in
// one hour (its start, UTC-aligned).
type TimelineCount struct {
	Hour    time.Time
	Source  string
	Members int
}

// Timeline is a cluster's members by hour and source, earliest first.
type Timeline struct {
	ClusterID int64
	Counts    []TimelineCount // by hour, then source
	Truncated bool            // more than MaxTimelineRows counts
}

// Timeline returns the timeline of the cluster headed by id; KindNotFound
// when no cluster (and no article) has that id.
func (s *Service) Timeline(ctx context.Context, id int64) (Timeline, error) {
	if id < 1 {
		return Timeline{}, Invalid("id", "must be a positive article id, not %d", id)
	}
	counts, err := s.store.ClusterTimeline(ctx, id, MaxTimelineRows+1)
	if err != nil {
		return Timeline{}, err
	}
	if len(counts) == 0 {
		return Timeline{}, &Error{Kind: KindNotFound, Message: "no such cluster: no article heads cluster " + itoa(id)}
	}
	t := Timeline{ClusterID: id, Counts: counts}
	if len(counts) > MaxTimelineRows {
		t.Counts, t.Truncated = counts[:MaxTimelineRows], true
	}
	return t, nil
}
