"""The one characteristics function: which face(s) count, then continuous effects in layers.

``characteristics(state, obj)`` is pure: printed faces, status, zone, copy stack and effects
go in; nothing derived is ever stored on an object (docs/decisions.md, "Model").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

import msgspec

from obverse import memo
from obverse.cards import LIST_FIELDS, STAT_FIELDS, Face
from obverse.registry import get_ruleset
from obverse.rulings import Ruling
from obverse.state import Effect, GameObject, GameState, PhysicalCard, marks_naming

if TYPE_CHECKING:
    from obverse.rulesets.hooks import Hooks as Ruleset

#: Effect keys by layer (MTG 613; the other games apply the same order): type, color,
#: ability, power/toughness setting, power/toughness modification.
LAYERS: Final = (
    ("set_types", "set_supertypes", "add_types", "add_supertypes", "add_subtypes"),
    ("color", "add_color"),
    ("lose_all_abilities",),
    ("set_power", "set_toughness"),
    ("power", "toughness"),
)

#: Every key an effect may modify (the layers' keys, and ``prevent_damage_from`` and
#: ``forbid``, which change no characteristic): any other is an input error, never ignored.
MODIFY_KEYS: Final = frozenset(
    {*(key for layer in LAYERS for key in layer), "prevent_damage_from", "forbid"}
)


class Characteristics(msgspec.Struct, frozen=True):
    """What an object is now: the face(s) that count, its names and its values.

    ``props.name`` is the one name (``A // B`` with two faces active, ``None`` if nameless);
    ``props.cost`` is the MTG mana cost string (``None`` if it has none) or the game's cost
    number; ``mana_value`` is MTG's (``None`` in other games). ``why`` holds the rulings of
    the branch of the ruleset that picked the face(s) and values (``obverse card`` prints them).
    """

    face: str
    names: tuple[str, ...]
    props: Face
    mana_value: int | None = None
    why: tuple[Ruling, ...] = ()

    def has_name(self, name: str) -> bool:
        """Shares ``name`` (MTG 201.2a: a nameless object shares a name with nothing)."""
        return name in self.names

    def value(self, key: str) -> Any:
        """A characteristic by its scenario key (``power``, ``types``, ``mana_value`` ...)."""
        if key == "mana_value":
            return self.mana_value
        if key == "names":
            return self.names
        return getattr(self.props, key)


def combine_faces(face: str, faces: Iterable[Face]) -> Characteristics:
    """Characteristics of one face, or of several active at once (split, twin): names and
    list fields are the union, a stat is the value the faces agree on, else ``None``."""
    faces = tuple(faces)
    if len(faces) == 1:
        f = faces[0]
        return Characteristics(face=face, names=(f.name,) if f.name else (), props=f)
    names = tuple(f.name for f in faces if f.name)
    fields: dict[str, Any] = {"name": " // ".join(names) if names else None}
    for key in LIST_FIELDS:
        merged: list[str] = []
        for f in faces:
            merged.extend(v for v in getattr(f, key) if v not in merged)
        fields[key] = tuple(merged)
    fields["text"] = "\n//\n".join(f.text for f in faces if f.text)
    for key in Face.__struct_fields__:
        if key in fields:
            continue
        values = {getattr(f, key) for f in faces}
        fields[key] = values.pop() if len(values) == 1 else None
    return Characteristics(face=face, names=names, props=Face(**fields))


@memo.per_identity(
    "obj",
    "state.effects",
    "state.cards",
    "state.designations",
    "state.ruleset",
    # Not on a subclass of the state (its parts may be wrappers of its own), under
    # another ruleset than the state's (rs.name is rs.aliases[0]), nor for a ruleset whose
    # characteristics depend on more than these parts.
    when="type(state) is GameState and type(obj) is not int"
    " and (ruleset or get_ruleset(state.ruleset)).aliases[0] == state.ruleset"
    " and (ruleset or get_ruleset(state.ruleset)).cacheable_characteristics",
    kept=200_000,
)
def characteristics(
    state: GameState, obj: GameObject | int, ruleset: Ruleset | None = None
) -> Characteristics:
    """The characteristics of ``obj`` now, under ``ruleset`` (default: the state's):
    :func:`apply_effects` of :func:`base_characteristics`, shared per shape and effects.

    ``why`` holds the rulings of the branch that decided, so it is as fresh as the values
    (kept per object, its parts all immutable). When every effect names its objects (see
    :func:`_by_object`), what applies to ``obj`` is its own entry of that table; the rest
    (copy exceptions, counters, status) is its shape: so two objects of one shape under the
    same entry have the same characteristics (:func:`_applied`), and a fresh object of a
    known shape costs a shape key and a lookup. A filter effect may look at the object's
    id, so then nothing is shared beyond the base."""
    if isinstance(obj, int):
        obj = state.objects[obj]
    rs = ruleset or get_ruleset(state.ruleset)
    effects = state.effects
    named = _by_object(effects) if effects else _NO_EFFECTS
    if named is None or not rs.cacheable_characteristics:
        return apply_effects(state, obj, base_characteristics(state, obj, rs), rs)
    marks = marks_of(state, obj.id) if state.designations else ()  # shape_key, inlined
    return _applied(state, obj, rs, object_shape(state.cards, obj, marks), named.get(obj.id))


def clear_cache(shapes: bool = True) -> None:
    """Drop cached characteristics (for memory measurements); ``shapes=False`` keeps the base
    characteristics per printed card and status (what a fresh object of a known shape reuses)."""
    memo.forget(characteristics)
    if shapes:
        memo.forget(_base)
        memo.forget(_applied)


# Base characteristics (before effects) depend on the printed card(s) and the object's status,
# not on its id: objects of the same shape (the same card, face, zone, status) share them, so
# they are computed once per card definition and status, not once per object.
_replace: Final = msgspec.structs.replace
_astuple: Final = msgspec.structs.astuple


#: GameObject fields no shape depends on: the id, the card ids (the physical cards stand for
#: them) and the timestamp (no characteristic depends on it). The meld result counts by value
#: (most objects have none: None hashes and compares fastest).
NOT_SHAPE: Final = ("id", "cards", "timestamp")
#: The fields :func:`object_shape` reads of a physical card (besides its printed card) and of
#: an object, in its order: the head's (no plain default) and the tail's (a plain default,
#: see :func:`_plain_default`). :func:`_check_shape_fields` holds them equal to the structs'.
CARD_HEAD: Final = ("owner",)
CARD_TAIL: Final = ("token", "transcended")
OBJECT_HEAD: Final = ("zone", "owner", "controller", "face")
OBJECT_TAIL: Final = (
    "face_down",
    "flipped",
    "token",
    "copies",
    "meld",
    "counters",
    "marked",
    "cross_tested",
    "set_face_down",
    "shown",
    "face_down_as",
    "face_down_values",
    "components",
    "unlocked",
    "under",
    "rested",
)


def _plain_default(field: msgspec.structs.FieldInfo) -> bool:
    """Whether a field's default is a value most objects keep (False, None, 0, ()): such fields
    go in the shape's tail, which most objects share (see :func:`object_shape`)."""
    return field.default is not msgspec.NODEFAULT and not isinstance(field.default, str)


def _check_shape_fields() -> tuple[Any, ...]:
    """The tail's defaults (with no designations), after checking that the field lists above
    are the structs' (a field added to an object or a physical card must be added there, or
    no shape would tell two objects that differ in it apart)."""
    obj_fields = [f for f in msgspec.structs.fields(GameObject) if f.name not in NOT_SHAPE]
    card_fields = [f for f in msgspec.structs.fields(PhysicalCard) if f.name != "card"]
    lists = {
        "CARD_HEAD": (CARD_HEAD, [f.name for f in card_fields if not _plain_default(f)]),
        "CARD_TAIL": (CARD_TAIL, [f.name for f in card_fields if _plain_default(f)]),
        "OBJECT_HEAD": (OBJECT_HEAD, [f.name for f in obj_fields if not _plain_default(f)]),
        "OBJECT_TAIL": (OBJECT_TAIL, [f.name for f in obj_fields if _plain_default(f)]),
    }
    for name, (listed, fields) in lists.items():
        if list(listed) != fields:
            raise RuntimeError(f"characteristics.{name} is {listed}, the structs have {fields}")
    defaults = tuple(f.default for f in (*card_fields, *obj_fields) if _plain_default(f))
    return (*defaults, ())


#: The shape tail of most objects: every field at its default, no designation.
_DEFAULTS: Final = _check_shape_fields()


def object_shape(cards: Any, o: GameObject, marks: tuple[str, ...]) -> tuple[Any, ...]:
    """:func:`shape_key` with the designations ``marks`` given: a flat tuple of the printed
    card by identity and the object's other fields and its physical card's (the fields listed
    above, each read by name: several times cheaper than the generic ways).

    Hashing and comparing the tuple is most of a shape's cost: so the fields with a plain
    default (flags, counters, designations) are read into a tail that is left out when it
    equals their defaults (as on most objects) and appended when it doesn't, one element
    more: a shorter tuple, the same distinctions (tuples of different lengths are never
    equal). A melded object's shape names each of its physical cards."""
    try:
        (card,) = o.cards  # one physical card (all but melded objects): unpacked, not counted
    except ValueError:
        return (
            _physical(cards, o),
            *(getattr(o, name) for name in OBJECT_HEAD),
            *(getattr(o, name) for name in OBJECT_TAIL),
            marks,
        )
    pc = cards[card]
    tail = (
        pc.token,
        pc.transcended,
        o.face_down,
        o.flipped,
        o.token,
        o.copies,
        o.meld,
        o.counters,
        o.marked,
        o.cross_tested,
        o.set_face_down,
        o.shown,
        o.face_down_as,
        o.face_down_values,
        o.components,
        o.unlocked,
        o.under,
        o.rested,
        marks,
    )
    head = (id(pc.card), pc.owner, o.zone, o.owner, o.controller, o.face)
    return head if tail == _DEFAULTS else (*head, tail)


def _physical(cards: Any, obj: GameObject) -> tuple[Any, ...]:
    """An object's physical cards (more than one: melded) as the shape names them."""
    return tuple((id(p.card), *_astuple(p)[1:]) for p in map(cards.__getitem__, obj.cards))


def marks_of(state: GameState, oid: int) -> tuple[str, ...]:
    """The names of the designations on object ``oid`` (FaB 8.1.11b: they may change its
    characteristics), in the state's order."""
    return marks_naming(state.designations, oid)  # a long tuple asked through its index


def shape_key(state: GameState, obj: GameObject) -> tuple[Any, ...]:
    """What a cacheable ruleset's base characteristics of ``obj`` depend on: its physical
    cards (the printed card by identity, see :func:`printed_cards`; the other fields by value) and
    its status fields and designations. Hashing it raises TypeError if a status field can't be
    hashed."""
    # A game may derive characteristics from a designation (FaB 8.1.11b: a demi-hero that
    # became its player's hero has the hero type), so the object's designations count too.
    marks = marks_of(state, obj.id) if state.designations else ()
    return object_shape(state.cards, obj, marks)


def printed_cards(state: GameState, obj: GameObject) -> tuple[Any, ...]:
    """The printed cards :func:`shape_key` names by identity: a cache keyed by the shape holds
    them alive in its value, so their ids aren't reused while the key is cached."""
    return (obj.meld, *(state.cards[c].card for c in obj.cards))


def base_characteristics(
    state: GameState, obj: GameObject, rs: Ruleset, shape: tuple[Any, ...] | None = None
) -> Characteristics:
    """``rs.base_characteristics(state, obj)``, shared by objects of the same shape when the
    ruleset's characteristics are cacheable (``shape``: the object's :func:`shape_key`, when
    the caller has it)."""
    if not rs.cacheable_characteristics:
        return rs.base_characteristics(state, obj)
    return _base(state, obj, rs, shape_key(state, obj) if shape is None else shape)


@memo.per_key("(type(rs), shape)", "printed_cards(state, obj)", kept=200_000)
def _base(
    state: GameState, obj: GameObject, rs: Ruleset, shape: tuple[Any, ...]
) -> Characteristics:
    """``rs.base_characteristics``, the same for every object of ``shape`` under the
    ruleset's class."""
    return rs.base_characteristics(state, obj)


@memo.per_key("(type(rs), shape, id(mine))", "(mine, printed_cards(state, obj))", kept=200_000)
def _applied(
    state: GameState,
    obj: GameObject,
    rs: Ruleset,
    shape: tuple[Any, ...],
    mine: list[tuple[int, list[Effect], _PTSums | None]] | None,
) -> Characteristics:
    """The characteristics of every object of ``shape`` whose named effects are ``mine``
    (:func:`_by_object`'s entry; the key holds it by identity)."""
    try:
        hash(shape)
    except TypeError:  # an unhashable status field: no shared base either
        return apply_effects(state, obj, rs.base_characteristics(state, obj), rs)
    return apply_effects(state, obj, base_characteristics(state, obj, rs, shape), rs)


def matches(chars: Characteristics, where: Mapping[str, Any]) -> bool:
    """Whether characteristics satisfy a filter: a list means "has at least these", a
    scalar means "equals" (``name``: has this name; on a list characteristic: has it); a key
    the object lacks never matches. ``zone`` is checked by the caller."""
    for key, want in where.items():
        if key in _NOT_CHARACTERISTICS:
            continue  # the zone and status are the caller's (status_matches)
        if key == "name":
            if not isinstance(want, str) or not chars.has_name(want):
                return False
            continue
        have = chars.value(key)
        if isinstance(have, tuple):
            wanted = want if isinstance(want, list | tuple) else [want]
            if not all(w in have for w in wanted):
                return False
        elif have is None or have != want:
            return False
    return True


def applies_to(
    state: GameState, effect: Effect, obj: GameObject, chars: Characteristics, rs: Ruleset
) -> bool:
    """Whether ``effect`` applies to ``obj`` given its characteristics before the layer."""
    if effect.target is not None:
        return effect.target == obj.id
    if effect.fixed is not None:
        return obj.id in effect.fixed
    if effect.filter is None:
        return False
    zone = effect.zone or rs.play_zone
    if not rs.zone_matches(obj.zone, zone):
        return False
    where = dict(effect.filter)
    return matches(chars, where) and (STATUS_KEYS.isdisjoint(where) or status_matches(obj, where))


def _add(values: tuple[str, ...], extra: Any) -> tuple[str, ...]:
    extra_t = (extra,) if isinstance(extra, str) else tuple(extra)
    return values + tuple(v for v in extra_t if v not in values)


_KEY_LAYER: Final = {key: i for i, layer in enumerate(LAYERS) for key in layer}


def apply_effects(
    state: GameState, obj: GameObject, chars: Characteristics, rs: Ruleset
) -> Characteristics:
    """Apply continuous effects to base characteristics, layer by layer in timestamp order;
    a filter effect tests the characteristics as the earlier layers left them."""
    if obj.copies and obj.copies[-1].exceptions and not obj.face_down:
        chars = copy_exceptions(chars, obj.copies[-1].exceptions)  # layer 1 (707.9)
    effects = state.effects
    if effects:
        named = _by_object(effects)
        if named is not None:
            # Every effect names its objects: only this object's effects, already in layers
            # (each applies: it names this object, which is all applies_to asks of such one).
            for i, todo, sums in named.get(obj.id, ()):
                chars = (
                    _apply_layer(chars, todo, LAYERS[i]) if sums is None else _add_pt(chars, sums)
                )
        else:
            for i, bucket in enumerate(_layer_buckets(effects)):
                if not bucket:
                    continue
                todo = [e for e in bucket if applies_to(state, e, obj, chars, rs)]
                if todo:
                    chars = _apply_layer(chars, todo, LAYERS[i])
    if obj.counters and rs.pt_counters:  # after effects (613.4c)
        chars = counters_pt(chars, obj.counters, rs.pt_counters, rs.pt_counter_stats)
    return chars


@memo.per_identity("effects")
def _layer_buckets(effects: tuple[Effect, ...]) -> list[list[Effect]]:
    """The effects of each layer in timestamp order (kept per effects tuple)."""
    buckets: list[list[Effect]] = [[] for _ in LAYERS]
    for e in sorted(effects, key=lambda e: e.timestamp):
        for i in sorted({_KEY_LAYER[k] for k, _ in e.modify if k in _KEY_LAYER}):
            buckets[i].append(e)
    return buckets


#: Power and toughness changes to add (``None``: no whole number added to that one).
_PTSums = tuple[int | None, int | None]
#: Per object id: (layer index, the layer's effects in timestamp order, and when they only
#: add whole numbers to power and toughness, those sums).
_Named = dict[int, list[tuple[int, list[Effect], _PTSums | None]]]
#: No effects: no object has named ones.
_NO_EFFECTS: Final[_Named] = {}


@memo.per_identity("effects")
def _by_object(effects: tuple[Effect, ...]) -> _Named | None:
    """Per object id, its layers' effects (see :data:`_Named`), when every effect names its
    objects (a target or fixed ids); None if any applies by filter. Kept per effects tuple,
    so an object no effect names costs one lookup."""
    if any(e.target is None and e.fixed is None for e in effects):
        return None
    per: dict[int, list[list[Effect]]] = {}
    for i, bucket in enumerate(_layer_buckets(effects)):
        for e in bucket:
            for oid in (e.target,) if e.target is not None else e.fixed or ():
                per.setdefault(oid, [[] for _ in LAYERS])[i].append(e)
    return {
        oid: [(i, b, _pt_sums(b, LAYERS[i])) for i, b in enumerate(layers) if b]
        for oid, layers in per.items()
    }


_PT: Final = ("power", "toughness")


def _pt_sums(effects: list[Effect], layer: tuple[str, ...]) -> _PTSums | None:
    """What :func:`_apply_layer` does with ``effects`` in ``layer`` when each of their changes
    there adds a number to power or toughness: the sums (a non-number is skipped there too);
    otherwise None."""
    sums: dict[str, int] = {}
    for e in effects:
        for key, value in e.modify:
            if key not in layer:
                continue
            if key not in _PT:
                return None
            if type(value) is int:
                sums[key] = sums.get(key, 0) + value
    return sums.get("power"), sums.get("toughness")


def _add_pt(chars: Characteristics, sums: _PTSums) -> Characteristics:
    """Power and toughness plus ``sums``, where they are numbers (as :func:`_apply_layer`)."""
    p = chars.props
    dp, dt = sums
    power, toughness = p.power, p.toughness
    add_p = dp is not None and type(power) is int
    add_t = dt is not None and type(toughness) is int
    if add_p and add_t:  # the usual +N/+N
        props = _replace(p, power=power + dp, toughness=toughness + dt)  # type: ignore[operator]
    elif add_p:
        props = _replace(p, power=power + dp)  # type: ignore[operator]
    elif add_t:
        props = _replace(p, toughness=toughness + dt)  # type: ignore[operator]
    else:
        return chars
    return _replace(chars, props=props)


def _apply_layer(
    chars: Characteristics, effects: list[Effect], layer: tuple[str, ...]
) -> Characteristics:
    """One layer's effects, in order, folded into a single change of the values."""
    p = chars.props
    changes: dict[str, Any] = {}
    for effect in effects:
        for key, value in effect.modify:
            if key not in layer:
                continue
            if key == "power" or key == "toughness":  # the commonest first
                base = changes.get(key, getattr(p, key))
                if type(base) is int and type(value) is int:
                    changes[key] = base + value
            elif key == "set_types":  # a game's type-setting effect (GA Type-Overwriting)
                changes["types"] = _names(value)
            elif key == "set_supertypes":
                changes["supertypes"] = _names(value)
            elif key == "add_types":
                changes["types"] = _add(changes.get("types", p.types), value)
            elif key == "add_supertypes":
                changes["supertypes"] = _add(changes.get("supertypes", p.supertypes), value)
            elif key == "add_subtypes":
                changes["subtypes"] = _add(changes.get("subtypes", p.subtypes), value)
            elif key == "color" or key == "add_color":
                changes["colors"] = _color_change(changes.get("colors", p.colors), key, value)
            elif key == "lose_all_abilities" and value:
                changes["abilities"] = ()
            elif key == "set_power":
                changes["power"] = value
            elif key == "set_toughness":
                changes["toughness"] = value
    if not changes:
        return chars
    return msgspec.structs.replace(chars, props=msgspec.structs.replace(p, **changes))


# --- status filters, color changes, copy exceptions, counters -------------------------------

#: Filter keys that test an object's status, which every player may know (never a hidden
#: characteristic): a face-down creature is matched as the face-down object it is.
STATUS_KEYS: Final = frozenset({"face_down", "token", "controller", "owner"})
_NOT_CHARACTERISTICS: Final = STATUS_KEYS | {"zone"}
#: Every key a filter may use (characteristics, ``zone`` and status).
FILTER_KEYS: Final = frozenset(
    {"name", "names", "zone", "mana_value", "cost", *LIST_FIELDS, *STAT_FIELDS, *STATUS_KEYS}
)


def status_matches(obj: GameObject, where: Mapping[str, Any]) -> bool:
    """Whether ``obj``'s status satisfies the status keys of a filter (``face_down``,
    ``token``: true or false; ``controller``, ``owner``: a player)."""
    for key, want in where.items():
        if key in STATUS_KEYS and getattr(obj, key) != want:
            return False
    return True


def _names(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _color_change(colors: tuple[str, ...], key: str, value: Any) -> tuple[str, ...]:
    """A color-changing effect (MTG 105.3): new colors replace the old ones unless "in
    addition to its other colors" (``add_color``)."""
    return _add(colors, value) if key == "add_color" else _names(value)


#: Copy exceptions that add to a list characteristic rather than set it ("except it's an
#: Illusion in addition to its other types").
EXCEPT_ADD: Final = {
    "add_types": "types",
    "add_supertypes": "supertypes",
    "add_subtypes": "subtypes",
    "add_colors": "colors",
    "add_abilities": "abilities",
}


def exception_keys(stats: tuple[str, ...]) -> frozenset[str]:
    """The keys a copy exception (``except:``) may use in a game printing ``stats`` (its
    ruleset's ``stats``; empty: every stat field)."""
    lists = ("types", "supertypes", "subtypes", "colors", "abilities", "tags")
    return frozenset({"name", *lists, *EXCEPT_ADD, *(stats or STAT_FIELDS)})


def copy_exceptions(
    chars: Characteristics, exceptions: tuple[tuple[str, object], ...]
) -> Characteristics:
    """Copiable values with a copy effect's exceptions (MTG 707.9): they set (or, ``add_*``,
    add to) characteristics; later effects apply on top of them."""
    p = chars.props
    changes: dict[str, Any] = {}
    names = chars.names
    for key, value in exceptions:
        if key in EXCEPT_ADD:
            field = EXCEPT_ADD[key]
            changes[field] = _add(changes.get(field, getattr(p, field)), value)
        elif key == "name":
            changes["name"], names = value, (str(value),)
        elif key in LIST_FIELDS:
            changes[key] = _names(value)
        else:
            changes[key] = value
    props = msgspec.structs.replace(p, **changes)
    return msgspec.structs.replace(chars, names=names, props=props)


def counters_pt(
    chars: Characteristics,
    counters: tuple[tuple[str, int], ...],
    kinds: Mapping[str, tuple[int, int]],
    stats: tuple[str, str] = ("power", "toughness"),
) -> Characteristics:
    """Power and toughness with the counters that change them (MTG 122.1a, layer 7c since
    counters joined that sublayer, 613.4c): ``kinds`` maps a counter to its change;
    ``stats`` names the two stats it changes (GA's buff counters: power and life)."""
    dp = dt = 0
    for name, count in counters:
        change = kinds.get(name)
        if change is not None:
            dp += change[0] * count
            dt += change[1] * count
    p = chars.props
    changes: dict[str, int] = {}
    first, second = getattr(p, stats[0]), getattr(p, stats[1])
    if dp and type(first) is int:
        changes[stats[0]] = first + dp
    if dt and type(second) is int:
        changes[stats[1]] = second + dt
    if not changes:
        return chars
    return msgspec.structs.replace(chars, props=msgspec.structs.replace(p, **changes))
