"""Values every floor above the rules engine may use: who sits at a table (:mod:`.seats`), the
league's rules (:mod:`.league`), the one reading of the wall clock (:mod:`.clock`) and
Discord's shard numbers (:mod:`.shards`). Nothing here does I/O or imports storage, sessions or
the cluster, so storage may keep these values and the sessions may pass them around."""
