// Package webhook tells subscribers, at least once, of every copy the
// service stores: the copy_events outbox (written by a trigger in the
// ingest's own transaction, migration 00040) is fanned out to the
// subscriptions each event matches (subscription.go) and delivered by a
// Worker (worker.go) as a signed JSON POST or a WeCom, DingTalk or Feishu
// robot message (format.go). Each delivery carries one id on every attempt,
// so a receiver can drop the repeats a crash or a timeout may cause.
package webhook
