"""The process's plumbing, below the sessions and the cluster and above storage: settings from
the environment (:mod:`.settings`), logging (:mod:`.logs`), background loops that stop without
losing a cancel (:mod:`.background`), the files the bot writes (:mod:`.files`) and the one-bot-
per-database lock (:mod:`.instance`). It knows nothing of games."""
