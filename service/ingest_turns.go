package service

import "context"

// takeTurn waits for a free place in turns — a channel whose capacity is
// how many may go at once — or until ctx ends; release gives the place
// back. Those waiting get their turns in the order they came.
func takeTurn(ctx context.Context, turns chan struct{}) (release func(), err error) {
	select {
	case turns <- struct{}{}:
		return func() { <-turns }, nil
	case <-ctx.Done():
		return nil, deadlineError(ctx)
	}
}
