package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// planNode is the part of a node of EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
// that the benchmark reads.
type planNode struct {
	NodeType         string     `json:"Node Type"`
	RelationName     string     `json:"Relation Name"`
	TotalCost        float64    `json:"Total Cost"`
	IndexName        string     `json:"Index Name"`
	IndexCond        string     `json:"Index Cond"`
	ActualRows       float64    `json:"Actual Rows"`
	ActualLoops      float64    `json:"Actual Loops"`
	RemovedByFilter  float64    `json:"Rows Removed by Filter"`
	RemovedByRecheck float64    `json:"Rows Removed by Index Recheck"`
	ExactHeapBlocks  float64    `json:"Exact Heap Blocks"`
	LossyHeapBlocks  float64    `json:"Lossy Heap Blocks"`
	SharedHitBlocks  float64    `json:"Shared Hit Blocks"`
	SharedReadBlocks float64    `json:"Shared Read Blocks"`
	Plans            []planNode `json:"Plans"`
}

// explainDoc is one statement's EXPLAIN output.
type explainDoc struct {
	Plan          planNode `json:"Plan"`
	PlanningTime  float64  `json:"Planning Time"`
	ExecutionTime float64  `json:"Execution Time"`
	JIT           *struct {
		Timing struct {
			Total float64 `json:"Total"`
		} `json:"Timing"`
	} `json:"JIT"`
}

// explained is what one EXPLAIN ANALYZE says about a query.
type explained struct {
	ExecutionMS float64 // "Execution Time": inside the executor, JIT included
	PlanningMS  float64
	JITMS       float64 // JIT compilation, part of ExecutionMS
	// Examined is the rows the scans of the table read: those they passed
	// up plus those their filter (bit_count) or recheck removed. For a
	// bitmap heap scan these are the candidates the index conditions let
	// through; for a sequential scan, every row.
	Examined float64
	// Returned is the rows the scans of the table passed up (before any
	// LIMIT): the matches within the distance.
	Returned    float64
	HeapBlocks  float64 // heap pages a bitmap heap scan visited
	SharedHit   float64 // buffers found in shared_buffers, whole plan
	SharedRead  float64 // buffers read from the kernel (its page cache or disk), whole plan
	Shape       string  // the plan's node types, e.g. "Limit → Sort → Bitmap Heap Scan → BitmapAnd(2× BitmapOr(4× Bitmap Index Scan))"
	UsesIndexes bool    // some node scans an index
	Cost        float64 // the planner's estimate for the whole plan
}

// parseExplain reads the JSON of EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
// of one statement; table names the relation whose scans count.
func parseExplain(data []byte, table string) (explained, error) {
	var docs []explainDoc
	if err := json.Unmarshal(data, &docs); err != nil {
		return explained{}, fmt.Errorf("parse EXPLAIN output: %w", err)
	}
	if len(docs) != 1 {
		return explained{}, fmt.Errorf("parse EXPLAIN output: %d plans, want 1", len(docs))
	}
	d := docs[0]
	if d.Plan.NodeType == "" {
		return explained{}, errors.New("parse EXPLAIN output: no plan")
	}
	e := explained{
		ExecutionMS: d.ExecutionTime,
		PlanningMS:  d.PlanningTime,
		SharedHit:   d.Plan.SharedHitBlocks,
		SharedRead:  d.Plan.SharedReadBlocks,
		Shape:       shape(d.Plan),
		Cost:        d.Plan.TotalCost,
	}
	if d.JIT != nil {
		e.JITMS = d.JIT.Timing.Total
	}
	walk(d.Plan, func(n *planNode) {
		if n.IndexName != "" {
			e.UsesIndexes = true
		}
		if n.RelationName != table || !strings.HasSuffix(n.NodeType, "Scan") {
			return
		}
		// Rows and removed rows are averages per loop; a parallel scan has
		// one loop per process.
		loops := max(n.ActualLoops, 1)
		e.Returned += n.ActualRows * loops
		e.Examined += (n.ActualRows + n.RemovedByFilter + n.RemovedByRecheck) * loops
		e.HeapBlocks += n.ExactHeapBlocks + n.LossyHeapBlocks
	})
	return e, nil
}

func walk(n planNode, fn func(*planNode)) {
	fn(&n)
	for _, c := range n.Plans {
		walk(c, fn)
	}
}

// shape writes a plan's node types as a chain, children in parentheses and
// runs of equal children counted: "Limit → Sort → Bitmap Heap Scan →
// BitmapAnd(2× BitmapOr(4× Bitmap Index Scan))".
func shape(n planNode) string {
	s := n.NodeType
	switch len(n.Plans) {
	case 0:
		return s
	case 1:
		return s + " → " + shape(n.Plans[0])
	}
	var parts []string
	for i := 0; i < len(n.Plans); {
		c := shape(n.Plans[i])
		j := i + 1
		for j < len(n.Plans) && shape(n.Plans[j]) == c {
			j++
		}
		if j-i > 1 {
			c = fmt.Sprintf("%d× %s", j-i, c)
		}
		parts = append(parts, c)
		i = j
	}
	return s + "(" + strings.Join(parts, ", ") + ")"
}
