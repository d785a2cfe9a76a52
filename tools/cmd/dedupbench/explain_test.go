package main

import "testing"

// bitmapPlan is EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of the service's
// query as PostgreSQL 15 printed it, cut down to the fields that matter.
const bitmapPlan = `[
  {
    "Plan": {
      "Node Type": "Limit", "Actual Rows": 3, "Actual Loops": 1,
      "Shared Hit Blocks": 40, "Shared Read Blocks": 2,
      "Plans": [
        {
          "Node Type": "Sort", "Parent Relationship": "Outer", "Actual Rows": 3, "Actual Loops": 1,
          "Plans": [
            {
              "Node Type": "Bitmap Heap Scan", "Relation Name": "articles", "Alias": "articles",
              "Actual Rows": 3, "Actual Loops": 1, "Recheck Cond": "…",
              "Rows Removed by Index Recheck": 0, "Filter": "…", "Rows Removed by Filter": 2,
              "Exact Heap Blocks": 5, "Lossy Heap Blocks": 0,
              "Plans": [
                {
                  "Node Type": "BitmapAnd", "Actual Rows": 0, "Actual Loops": 1,
                  "Plans": [
                    {"Node Type": "BitmapOr", "Actual Loops": 1, "Plans": [
                      {"Node Type": "Bitmap Index Scan", "Index Name": "articles_a0_idx", "Actual Rows": 16, "Actual Loops": 1},
                      {"Node Type": "Bitmap Index Scan", "Index Name": "articles_a1_idx", "Actual Rows": 15, "Actual Loops": 1},
                      {"Node Type": "Bitmap Index Scan", "Index Name": "articles_a2_idx", "Actual Rows": 14, "Actual Loops": 1},
                      {"Node Type": "Bitmap Index Scan", "Index Name": "articles_a3_idx", "Actual Rows": 17, "Actual Loops": 1}
                    ]},
                    {"Node Type": "BitmapOr", "Actual Loops": 1, "Plans": [
                      {"Node Type": "Bitmap Index Scan", "Index Name": "articles_b0_idx", "Actual Rows": 16, "Actual Loops": 1},
                      {"Node Type": "Bitmap Index Scan", "Index Name": "articles_b1_idx", "Actual Rows": 15, "Actual Loops": 1},
                      {"Node Type": "Bitmap Index Scan", "Index Name": "articles_b2_idx", "Actual Rows": 14, "Actual Loops": 1},
                      {"Node Type": "Bitmap Index Scan", "Index Name": "articles_b3_idx", "Actual Rows": 17, "Actual Loops": 1}
                    ]}
                  ]
                }
              ]
            }
          ]
        }
      ]
    },
    "Planning Time": 0.210,
    "Triggers": [],
    "Execution Time": 0.083
  }
]`

// parallelScanPlan is a full scan with two workers: rows and removed rows
// are per loop, and there are three loops.
const parallelScanPlan = `[
  {
    "Plan": {
      "Node Type": "Gather", "Actual Rows": 4, "Actual Loops": 1, "Workers Launched": 2,
      "Shared Hit Blocks": 100, "Shared Read Blocks": 9000,
      "Plans": [
        {"Node Type": "Seq Scan", "Parallel Aware": true, "Relation Name": "articles",
         "Actual Rows": 1, "Actual Loops": 3, "Rows Removed by Filter": 333332}
      ]
    },
    "Planning Time": 0.1,
    "JIT": {"Functions": 4, "Timing": {"Generation": 1.0, "Inlining": 0, "Optimization": 2.5, "Emission": 10.0, "Total": 13.5}},
    "Execution Time": 120.5
  }
]`

func TestParseExplain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, json string
		want       explained
	}{
		{"bitmap", bitmapPlan, explained{
			ExecutionMS: 0.083, PlanningMS: 0.210, Examined: 5, Returned: 3, HeapBlocks: 5,
			SharedHit: 40, SharedRead: 2, UsesIndexes: true,
			Shape: "Limit → Sort → Bitmap Heap Scan → BitmapAnd(2× BitmapOr(4× Bitmap Index Scan))",
		}},
		{"parallel scan", parallelScanPlan, explained{
			ExecutionMS: 120.5, PlanningMS: 0.1, JITMS: 13.5, Examined: 999999, Returned: 3,
			SharedHit: 100, SharedRead: 9000, Shape: "Gather → Seq Scan",
		}},
	}
	for _, tt := range tests {
		got, err := parseExplain([]byte(tt.json), "articles")
		if err != nil {
			t.Fatalf("parseExplain(%s) error: %v", tt.name, err)
		}
		if got != tt.want {
			t.Errorf("parseExplain(%s) =\n%+v\nwant\n%+v", tt.name, got, tt.want)
		}
	}
}

func TestParseExplainOtherTable(t *testing.T) {
	t.Parallel()
	got, err := parseExplain([]byte(bitmapPlan), "articles_masked")
	if err != nil {
		t.Fatal(err)
	}
	if got.Examined != 0 || got.Returned != 0 {
		t.Errorf("parseExplain(plan on articles, table articles_masked) counted rows: %+v", got)
	}
}

func TestParseExplainErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{``, `{}`, `[]`, `[{"Plan": {}}]`, `[{"Plan": {"Node Type": "Result"}}, {"Plan": {"Node Type": "Result"}}]`} {
		if _, err := parseExplain([]byte(in), "articles"); err == nil {
			t.Errorf("parseExplain(%q) = nil error, want one", in)
		}
	}
}
