"""What the Discord layer shows and parses, with no flow and no notifier: custom ids
(:mod:`.ids`), the buttons and menus that survive restarts (:mod:`.items`, :mod:`.seat_items`)
and the rows built of them (:mod:`.components`), texts (:mod:`.present`, the ``*_words``
modules, :mod:`.help`, :mod:`.hints`), typed card input (:mod:`.typed`, :mod:`.positions`),
replies and refusals (:mod:`.replies`), threads (:mod:`.threads`) and the next-game queue
(:mod:`.queue`)."""
