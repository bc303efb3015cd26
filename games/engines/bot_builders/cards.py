"""The 48 Bot-Builders cards, defined once.

Card ids are a contract with the database, the templates and the tests (see
docs/rules-bot-builders.md): never rename one. The order of `DECK_IDS` is the order of that page's
tables; it is only the order before the seeded shuffle.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engines.i18n import N_

# The four part categories, in the order the site and the printables show them.
CATEGORY: tuple[str, ...] = ("sense", "think", "act", "power")
# The five bench slots: one per part category, then the Mission.
SLOTS: tuple[str, ...] = (*CATEGORY, "mission")
KINDS: tuple[str, ...] = (*CATEGORY, "mission", "glitch")
# What each kind is called on a card, a bench slot and a button (translated where shown).
CATEGORY_NAMES: dict[str, str] = {
    "sense": N_("Sense"),
    "think": N_("Think"),
    "act": N_("Act"),
    "power": N_("Power"),
    "mission": N_("Mission"),
    "glitch": N_("Glitch"),
}
# The phases of a turn, named for people (the ids in `game.PHASES` never change).
PHASE_NAMES: dict[str, str] = {
    "draw": N_("Draw"),
    "act": N_("Play a card"),
    "discard_down": N_("Discard down"),
    "bot": N_("BOT! choice"),
    "over": N_("Round over"),
}

HAND_LIMIT = 5
DEAL_SIZE = 4


@dataclass(frozen=True, slots=True)
class Card:
    """One card.

    `slot` is the bench slot a part or Mission goes into, and for a Glitch the slot it hits.
    `prefers` is set for Missions only (two categories). `returns_to_hand` is set for the Glitches
    whose part goes back to its owner's hand instead of the discard pile.
    """

    id: str
    name: str
    kind: str
    text: str
    slot: str
    prefers: tuple[str, ...] = ()
    returns_to_hand: bool = False

    @property
    def is_part(self) -> bool:
        return self.kind in CATEGORY

    @property
    def is_glitch(self) -> bool:
        return self.kind == "glitch"

    @property
    def installable(self) -> bool:
        return self.kind != "glitch"


def _part(id: str, name: str, kind: str, text: str) -> Card:
    return Card(id, name, kind, text, slot=kind)


def _mission(id: str, name: str, prefers: tuple[str, str], text: str) -> Card:
    return Card(id, name, "mission", text, slot="mission", prefers=prefers)


def _glitch(id: str, name: str, slot: str, text: str, returns: bool = False) -> Card:
    return Card(id, name, "glitch", text, slot=slot, returns_to_hand=returns)


_ALL: tuple[Card, ...] = (
    _part("camera", N_("Camera"), "sense", N_("Sees faces, colours and obstacles.")),
    _part(
        "ultrasonic_sensor",
        N_("Ultrasonic sensor"),
        "sense",
        N_("Bounces sound to measure distance, like a bat."),
    ),
    _part("microphone", N_("Microphone"), "sense", N_("Hears voices, claps and alarms.")),
    _part("touch_sensor", N_("Touch sensor"), "sense", N_("Feels a bump or a press.")),
    _part("light_sensor", N_("Light sensor"), "sense", N_("Knows bright from dark.")),
    _part("thermometer", N_("Thermometer"), "sense", N_("Measures how hot or cold it is.")),
    _part("gps_receiver", N_("GPS receiver"), "sense", N_("Knows where on Earth it is.")),
    _part("line_sensor", N_("Line sensor"), "sense", N_("Follows a line drawn on the floor.")),
    _part(
        "if_then_board",
        N_("If/Then board"),
        "think",
        N_("If something happens, then do something."),
    ),
    _part("loop_chip", N_("Loop chip"), "think", N_("Repeats steps until the job is done.")),
    _part(
        "microcontroller",
        N_("Microcontroller"),
        "think",
        N_("A tiny computer that runs a program."),
    ),
    _part("timer_chip", N_("Timer chip"), "think", N_("Counts seconds and starts things on time.")),
    _part("map_memory", N_("Map memory"), "think", N_("Remembers where it has been.")),
    _part(
        "pattern_learner",
        N_("Pattern learner"),
        "think",
        N_("Gets better by learning from examples."),
    ),
    _part(
        "decision_tree",
        N_("Decision tree"),
        "think",
        N_("Answers yes/no questions to pick an action."),
    ),
    _part("counter_chip", N_("Counter chip"), "think", N_("Keeps count of things it has done.")),
    _part("drive_wheels", N_("Drive wheels"), "act", N_("Rolls forward, back and around.")),
    _part("gripper_claw", N_("Gripper claw"), "act", N_("Picks things up and lets them go.")),
    _part("speaker", N_("Speaker"), "act", N_("Talks, beeps and plays alarms.")),
    _part("led_display", N_("LED display"), "act", N_("Shows pictures and messages.")),
    _part("propeller", N_("Propeller"), "act", N_("Lifts the bot into the air.")),
    _part("robot_arm", N_("Robot arm"), "act", N_("Reaches, bends and places things.")),
    _part("water_pump", N_("Water pump"), "act", N_("Sprays or moves water.")),
    _part("tank_treads", N_("Tank treads"), "act", N_("Crawls over rocks and mud.")),
    _part("battery_pack", N_("Battery pack"), "power", N_("Stores energy to use anywhere.")),
    _part("solar_panel", N_("Solar panel"), "power", N_("Turns sunlight into energy.")),
    _part("wind_turbine", N_("Wind turbine"), "power", N_("Turns wind into energy.")),
    _part("hand_crank", N_("Hand crank"), "power", N_("Turn the handle to make energy.")),
    _part("wall_plug", N_("Wall plug"), "power", N_("Plugs into the wall, but the cord is short.")),
    _part("fuel_cell", N_("Fuel cell"), "power", N_("Makes energy from hydrogen for a long time.")),
    _part("spring_motor", N_("Spring motor"), "power", N_("Wind it up and let it go.")),
    _part("supercapacitor", N_("Supercapacitor"), "power", N_("Charges in seconds, empties fast.")),
    _mission(
        "rescue_rover",
        N_("Rescue rover"),
        ("sense", "act"),
        N_("Finds people trapped after a storm and brings them supplies."),
    ),
    _mission(
        "maze_runner", N_("Maze runner"), ("sense", "think"), N_("Finds the way out of any maze.")
    ),
    _mission(
        "garden_helper",
        N_("Garden helper"),
        ("sense", "power"),
        N_("Checks the plants all day and waters the dry ones."),
    ),
    _mission(
        "library_sorter",
        N_("Library sorter"),
        ("think", "act"),
        N_("Puts every book back on the right shelf."),
    ),
    _mission(
        "space_explorer",
        N_("Space explorer"),
        ("think", "power"),
        N_("Explores a far planet for years with no one to help."),
    ),
    _mission(
        "delivery_drone", N_("Delivery drone"), ("act", "power"), N_("Flies packages across town.")
    ),
    _mission(
        "night_guard",
        N_("Night guard"),
        ("sense", "think"),
        N_("Watches the school at night and spots anything strange."),
    ),
    _mission(
        "beach_cleaner",
        N_("Beach cleaner"),
        ("act", "power"),
        N_("Picks up litter on the beach from sunrise to sunset."),
    ),
    _glitch("dead_battery", N_("Dead battery"), "power", N_("Discard your installed Power part.")),
    _glitch(
        "loose_wire",
        N_("Loose wire"),
        "power",
        N_("Take your installed Power part back into your hand."),
        returns=True,
    ),
    _glitch("fogged_lens", N_("Fogged lens"), "sense", N_("Discard your installed Sense part.")),
    _glitch(
        "static_noise",
        N_("Static noise"),
        "sense",
        N_("Take your installed Sense part back into your hand."),
        returns=True,
    ),
    _glitch(
        "infinite_loop", N_("Infinite loop"), "think", N_("Discard your installed Think part.")
    ),
    _glitch("flat_tire", N_("Flat tire"), "act", N_("Discard your installed Act part.")),
    _glitch(
        "jammed_gear",
        N_("Jammed gear"),
        "act",
        N_("Take your installed Act part back into your hand."),
        returns=True,
    ),
    _glitch("mission_drift", N_("Mission drift"), "mission", N_("Discard your installed Mission.")),
)

CARDS: dict[str, Card] = {card.id: card for card in _ALL}
DECK_IDS: tuple[str, ...] = tuple(card.id for card in _ALL)
DECK_SIZE = len(DECK_IDS)


def cards_of_kind(kind: str) -> tuple[Card, ...]:
    """The cards of one kind, in deck order (for the site's card lists and the printables)."""
    return tuple(card for card in _ALL if card.kind == kind)
