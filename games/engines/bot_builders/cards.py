"""The 48 Bot-Builders cards, defined once.

Card ids are a contract with the database, the templates and the tests (see
docs/rules-bot-builders.md): never rename one. The order of `DECK_IDS` is the order of that page's
tables; it is only the order before the seeded shuffle.
"""

from __future__ import annotations

from dataclasses import dataclass

# The four part categories, in the order the site and the printables show them.
CATEGORY: tuple[str, ...] = ("sense", "think", "act", "power")
# The five bench slots: one per part category, then the Mission.
SLOTS: tuple[str, ...] = (*CATEGORY, "mission")
KINDS: tuple[str, ...] = (*CATEGORY, "mission", "glitch")

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
    _part("camera", "Camera", "sense", "Sees faces, colours and obstacles."),
    _part(
        "ultrasonic_sensor",
        "Ultrasonic sensor",
        "sense",
        "Bounces sound to measure distance, like a bat.",
    ),
    _part("microphone", "Microphone", "sense", "Hears voices, claps and alarms."),
    _part("touch_sensor", "Touch sensor", "sense", "Feels a bump or a press."),
    _part("light_sensor", "Light sensor", "sense", "Knows bright from dark."),
    _part("thermometer", "Thermometer", "sense", "Measures how hot or cold it is."),
    _part("gps_receiver", "GPS receiver", "sense", "Knows where on Earth it is."),
    _part("line_sensor", "Line sensor", "sense", "Follows a line drawn on the floor."),
    _part("if_then_board", "If/Then board", "think", "If something happens, then do something."),
    _part("loop_chip", "Loop chip", "think", "Repeats steps until the job is done."),
    _part("microcontroller", "Microcontroller", "think", "A tiny computer that runs a program."),
    _part("timer_chip", "Timer chip", "think", "Counts seconds and starts things on time."),
    _part("map_memory", "Map memory", "think", "Remembers where it has been."),
    _part("pattern_learner", "Pattern learner", "think", "Gets better by learning from examples."),
    _part("decision_tree", "Decision tree", "think", "Answers yes/no questions to pick an action."),
    _part("counter_chip", "Counter chip", "think", "Keeps count of things it has done."),
    _part("drive_wheels", "Drive wheels", "act", "Rolls forward, back and around."),
    _part("gripper_claw", "Gripper claw", "act", "Picks things up and lets them go."),
    _part("speaker", "Speaker", "act", "Talks, beeps and plays alarms."),
    _part("led_display", "LED display", "act", "Shows pictures and messages."),
    _part("propeller", "Propeller", "act", "Lifts the bot into the air."),
    _part("robot_arm", "Robot arm", "act", "Reaches, bends and places things."),
    _part("water_pump", "Water pump", "act", "Sprays or moves water."),
    _part("tank_treads", "Tank treads", "act", "Crawls over rocks and mud."),
    _part("battery_pack", "Battery pack", "power", "Stores energy to use anywhere."),
    _part("solar_panel", "Solar panel", "power", "Turns sunlight into energy."),
    _part("wind_turbine", "Wind turbine", "power", "Turns wind into energy."),
    _part("hand_crank", "Hand crank", "power", "Turn the handle to make energy."),
    _part("wall_plug", "Wall plug", "power", "Plugs into the wall, but the cord is short."),
    _part("fuel_cell", "Fuel cell", "power", "Makes energy from hydrogen for a long time."),
    _part("spring_motor", "Spring motor", "power", "Wind it up and let it go."),
    _part("supercapacitor", "Supercapacitor", "power", "Charges in seconds, empties fast."),
    _mission(
        "rescue_rover",
        "Rescue rover",
        ("sense", "act"),
        "Finds people trapped after a storm and brings them supplies.",
    ),
    _mission("maze_runner", "Maze runner", ("sense", "think"), "Finds the way out of any maze."),
    _mission(
        "garden_helper",
        "Garden helper",
        ("sense", "power"),
        "Checks the plants all day and waters the dry ones.",
    ),
    _mission(
        "library_sorter",
        "Library sorter",
        ("think", "act"),
        "Puts every book back on the right shelf.",
    ),
    _mission(
        "space_explorer",
        "Space explorer",
        ("think", "power"),
        "Explores a far planet for years with no one to help.",
    ),
    _mission("delivery_drone", "Delivery drone", ("act", "power"), "Flies packages across town."),
    _mission(
        "night_guard",
        "Night guard",
        ("sense", "think"),
        "Watches the school at night and spots anything strange.",
    ),
    _mission(
        "beach_cleaner",
        "Beach cleaner",
        ("act", "power"),
        "Picks up litter on the beach from sunrise to sunset.",
    ),
    _glitch("dead_battery", "Dead battery", "power", "Discard your installed Power part."),
    _glitch(
        "loose_wire",
        "Loose wire",
        "power",
        "Take your installed Power part back into your hand.",
        returns=True,
    ),
    _glitch("fogged_lens", "Fogged lens", "sense", "Discard your installed Sense part."),
    _glitch(
        "static_noise",
        "Static noise",
        "sense",
        "Take your installed Sense part back into your hand.",
        returns=True,
    ),
    _glitch("infinite_loop", "Infinite loop", "think", "Discard your installed Think part."),
    _glitch("flat_tire", "Flat tire", "act", "Discard your installed Act part."),
    _glitch(
        "jammed_gear",
        "Jammed gear",
        "act",
        "Take your installed Act part back into your hand.",
        returns=True,
    ),
    _glitch("mission_drift", "Mission drift", "mission", "Discard your installed Mission."),
)

CARDS: dict[str, Card] = {card.id: card for card in _ALL}
DECK_IDS: tuple[str, ...] = tuple(card.id for card in _ALL)
DECK_SIZE = len(DECK_IDS)


def cards_of_kind(kind: str) -> tuple[Card, ...]:
    """The cards of one kind, in deck order (for the site's card lists and the printables)."""
    return tuple(card for card in _ALL if card.kind == kind)
