"""Running the bot past one process: which shards (and so which servers' games) this process
owns. With SQLite there is one process and it owns every shard; with PostgreSQL several
processes share the database and each owns the shards whose leases it holds."""
