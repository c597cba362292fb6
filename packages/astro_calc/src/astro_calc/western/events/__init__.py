"""Sky events and timing: eclipses, lunations, ingresses, stations, the void-of-course Moon
(:mod:`.sky`), planetary hours (:mod:`.hours`), a personal forecast (:mod:`.forecast`) and their
iCalendar form (:mod:`.ical`)."""
