"""Choosing a Bot-Builders move in a browser, for the live browser tests."""

import re

MOVE_BUTTONS = "form.move-form button"


def choose(page, team_number: int, acted: set[str]):
    """The button a simple player picks among those shown: BOT! first, then Team 2's one
    glitch, then installing, then drawing from the pile, then discarding, then anything."""
    buttons = page.locator(MOVE_BUTTONS)
    # Folded groups hold buttons too: read every label, and open a button's group to tap it.
    labels = [label.strip() for label in buttons.all_text_contents()]
    preferences = [
        r"^BOT!$",
        r"^Play Flat tire on Team 1$" if team_number == 2 and "glitch" not in acted else r"^$",
        r"^Install ",
        r"^Draw from the draw pile",
        r"^Discard ",
    ]
    for pattern in preferences:
        for index, label in enumerate(labels):
            if re.search(pattern, label):
                if "Flat tire" in label:
                    acted.add("glitch")
                return unfolded(page, buttons.nth(index)), label
    return unfolded(page, buttons.first), labels[0]


def unfolded(page, button):
    """`button`, its folded move group opened by a tap on the group's heading first."""
    group = button.locator("xpath=ancestor::details[1]")
    if group.count() and group.get_attribute("open") is None:
        group.locator("summary").click()
    return button
