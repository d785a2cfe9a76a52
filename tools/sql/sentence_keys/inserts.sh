#!/bin/bash
# After setup.sql: 40 transactions of 3,100 rows (100 articles' sentences)
# into each layout, in turn; prints each index's bytes before and after, and
# the median µs a row. Runs psql as the postgres user, as on this machine.
U=$1
for l in cur five; do runuser -u postgres -- psql "$U" -Atc "select pg_relation_size('s_${l}_keys')" ; done > ${TMPDIR:-/tmp}/sentence_keys_before
for i in $(seq 0 39); do
  for l in cur five; do
    first=$((20000000 + i * 3100))
    echo "$l $(runuser -u postgres -- psql "$U" -Atc "select time_inserts('$l', $first, 3100)")"
  done
done > ${TMPDIR:-/tmp}/sentence_keys_inserts
for l in cur five; do runuser -u postgres -- psql "$U" -Atc "select pg_relation_size('s_${l}_keys')" ; done > ${TMPDIR:-/tmp}/sentence_keys_after
paste ${TMPDIR:-/tmp}/sentence_keys_before ${TMPDIR:-/tmp}/sentence_keys_after
for l in cur five; do grep "^$l " ${TMPDIR:-/tmp}/sentence_keys_inserts | awk '{print $2}' | sort -n | awk -v l=$l '{a[NR]=$1} END {print l, "median µs/row", a[int((NR+1)/2)], "min", a[1], "max", a[NR]}'; done
