"""Services above storage that the sessions and the Discord layer read: the settings books of
servers and persons (:mod:`.settings_book`, :mod:`.server_settings`,
:mod:`.personal_settings`), the league's standings (:mod:`.standings`) and the record of the
slash commands synced with Discord (:mod:`.synced_commands`). Each is built on a store and
handed to whoever needs it; none knows of sessions."""
