// Package newscorpus reads the real Chinese news corpora (Sina 2018, CCTV
// 新闻联播) that the evaluation (cmd/dedupeval) and the benchmark
// (cmd/dedupbench) measure the service on.
//
// Why it exists: both commands need the same articles, read the same way,
// from the same folder, and both must do without them when they are
// missing. The corpora are third parties' text: they are read at run time
// from a folder beside the repository (../shared/corpora seen from its
// root) and never copied into it — not into tests, fixtures or docs.
package newscorpus
