"""What the class understood, read from its teach-back sentences and its 3 Laws Error calls.

Pure analysis (no database, no requests): the report selectors hand in plain records and get
back plain results that the pages, the PDFs and the CSV/XLSX files all draw from.

- `sentences`: the sentence record and the `Reader` that applies the teach-back hints' rules
  (games/teachback/hints.py, the one place for each rule) with a memo;
- `blanks`: what the class wrote in each blank, grouped by the card it names;
- `misconceptions`: named, counted patterns with the sentences behind them;
- `teach_next`: the two or three patterns most worth a reteach, from stated rules;
- `three_laws`: Error calls, right or wrong as the game settled them, by team and by law.
"""
