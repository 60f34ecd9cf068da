"""MTG rule ids by topic, per Comprehensive Rules version.

Topics are stable keys; each version maps them to the id it numbers them with. Rulings cite
ids "in the numbering of the selected version" (scenario contract). ``newest`` is the CR of
2026 (DFCs and meld at 712, transform 701.27); ``2020`` is the numbering of seed 004 (DFCs at
711, transform 701.28, meld action 701.37, naming 201.3, copy 706, face-down 707, split
708, flip 709, meld 712); ``2008`` is seed 002 (flip cards at 508), with the 2020 numbers
for everything that rulings document doesn't cover.
"""

from __future__ import annotations

from typing import Final

NEWEST: Final[dict[str, str]] = {
    "same_name": "201.2a",
    "naming": "201.4",
    "naming_split": "201.4b",
    "naming_flip": "201.4c",
    "naming_dfc": "201.4d",
    "naming_meld": "201.4e",
    "naming_adventure": "201.4f",
    "mana_value": "202.3",
    "mv_no_cost": "202.3a",
    "mv_back_face": "202.3b",
    "mv_meld": "202.3c",
    "mv_split": "202.3d",
    "land_play": "305.1",
    "instant_stays": "304.4",
    "sorcery_stays": "307.4",
    "new_object": "400.7",
    "transform": "701.27a",
    "transform_not_dfc": "701.27c",
    "transform_instant": "701.27d",
    "transformed_permanent": "701.27g",
    "meld_action": "701.42a",
    "meld_pair": "701.42b",
    "meld_stay": "701.42c",
    "meld_back": "712.4b",
    "meld_front_outside": "712.8a",
    "meld_front_up": "712.8d",
    "meld_naming": "712.19",
    "meld_no_transform": "712.9",
    "meld_no_face_down": "712.16",
    "copiable_values": "707.2",
    "copy_status": "707.3",
    "copy_dfc": "707.8",
    "token_copy_dfc": "707.8a",
    "face_down_chars": "708.2a",
    "face_down_again": "708.2b",
    "face_down_cast": "708.4",
    "face_down_look": "708.5",
    "face_down_distinguish": "708.6",
    "face_up_spell": "708.7",
    "face_up": "708.8",
    "face_down_reveal": "708.9",
    "face_down_copy": "708.10",
    "split_choose": "709.3",
    "split_evaluated": "709.3a",
    "split_stack": "709.3b",
    "split_copy": "709.3c",
    "split_combined": "709.4",
    "split_names": "709.4a",
    "split_cost": "709.4b",
    "split_types": "709.4c",
    "flip_alt": "710.1b",
    "flip_color_cost": "710.1c",
    "flip_normal": "710.2",
    "flip": "710.2",
    "flip_one_way": "710.4",
    "flip_naming": "710.5",
    "meld": "712.4b",
    "dfc_look": "712.6",
    "dfc_hidden": "712.7",
    "dfc_front_outside": "712.8a",
    "meld_stack": "712.8b",
    "dfc_spell": "712.8c",
    "dfc_front_up": "712.8d",
    "dfc_back_up": "712.8e",
    "mdfc_face_up": "712.8f",
    "meld_chars": "712.8g",
    "who_transforms": "712.9",
    "transform_into_instant": "712.10",
    "cast_front": "712.11",
    "cast_transformed": "712.11a",
    "cast_mdfc_face": "712.11b",
    "cast_evaluated": "712.11c",
    "mdfc_land": "712.12",
    "resolve_same_face": "712.13",
    "resolve_transformed_instant": "712.13a",
    "enter_front": "712.14",
    "enter_transformed": "712.14a",
    "mdfc_front_not_permanent": "712.14b",
    "meld_enters": "712.14c",
    "dfc_face_down": "712.15",
    "face_down_no_transform": "712.15a",
    "dfc_no_face_down": "712.16",
    "dfc_exiled_face_down": "712.17",
    "transform_not_new": "712.18",
    "dfc_naming": "712.19",
    "meld_leaves": "712.21",
    "adventure_alt": "715.2",
    "adventure_cast": "715.3",
    "adventure_evaluated": "715.3a",
    "adventure_stack": "715.3b",
    "adventure_exile": "715.3d",
    "adventure_normal": "715.4",
    # Face-down kinds and turning face up (facedown.py, kinds.py): 116.2b special action, 112.2
    # a spell's controller, 110.2 a permanent's, 608.3a resolving, 400.3 owner's zones.
    "face_up_special": "116.2b",
    "spell_controller": "112.2",
    "permanent_controller": "110.2",
    "resolve_permanent": "608.3a",
    "owner_zone": "400.3",
    "morph": "702.37a",
    "megamorph": "702.37b",
    "morph_cast": "702.37c",
    "morph_face_up": "702.37e",
    "disguise": "702.168a",
    "disguise_face_up": "702.168d",
    "manifest": "701.40a",
    "manifest_face_up": "701.40b",
    "manifest_morph": "701.40c",
    "manifest_disguise": "701.40d",
    "manifest_instant": "701.40g",
    "cloak": "701.58a",
    "cloak_face_up": "701.58b",
    "cloak_morph": "701.58c",
    "cloak_disguise": "701.58d",
    "cloak_instant": "701.58g",
    "manifest_dread": "701.62a",
    # Face-down objects, round three (facedown.py, exile.py): listed values 708.2,
    # "as this is turned face up" 708.11, an instant or sorcery card can't be a permanent
    # 110.4 (a merged one 729.2g), face-down exile 406.3-406.4, foretell 702.143, hideaway
    # 702.75, searching 701.23a.
    "face_down_values": "708.2",
    "face_up_as": "708.11",
    "instant_no_permanent": "110.4",
    "merged_instant": "729.2g",
    "mutate": "702.140a",
    "mutate_illegal": "702.140b",
    "mutate_merge": "702.140c",
    "mutated_abilities": "702.140e",
    "merge": "729.2",
    "merged_chars": "729.2a",
    "merged_same": "729.2c",
    "merged_status": "729.2e",
    "merged_face": "729.2f",
    "merged_flip": "729.2h",
    "merged_transform": "729.2i",
    "merged_no_face_down": "729.2j",
    "merged_leaves": "729.3",
    "exile_face_down": "406.3",
    "exile_no_chars": "406.3a",
    "exile_choose": "406.4",
    "foretell": "702.143a",
    "foretell_reveal": "702.143f",
    "hideaway": "702.75a",
    "search": "701.23a",
    "concede": "104.3a",
    # Effects: copy exceptions, color, counters (the 2020 text numbers them alike, with
    # copying at 706).
    "copy_exception_ability": "707.9a",
    "copy_exception": "707.9b",
    "color_change": "105.3",
    "layer_color": "613.1e",
    "pt_counters": "613.4c",
    "counter_pt": "122.1a",
    "counter_annihilation": "704.5q",
    "counter_pairs": "122.3",
    **{
        # Rooms (709.5, since September 2024), fuse (702.102), prototype (718) and Omen
        # (720, since April 2025): only the versions that have them (their handlers in
        # layouts/ check).
        "room": "709.5",
        "room_types": "709.5a",
        "room_spell": "709.5b",
        "room_designation": "709.5c",
        "room_enters": "709.5d",
        "room_unlock": "709.5f",
        "room_fully": "709.5i",
        "room_door": "709.5j",
        "fuse": "702.102a",
        "fuse_chars": "702.102b",
        "split_fused": "709.4d",
        "prototype_alt": "718.2",
        "prototype_copiable": "718.2a",
        "prototype_cast": "718.3",
        "prototype_eval": "718.3a",
        "prototype_chars": "718.3b",
        "prototype_copy": "718.3d",
        "prototype_normal": "718.4",
        "prototype_same": "718.5",
        "omen_alt": "720.2",
        "omen_cast": "720.3",
        "omen_eval": "720.3a",
        "omen_stack": "720.3b",
        "omen_shuffle": "720.3d",
        "omen_normal": "720.4",
    },
    **{
        # Round three (permanents.py, copies.py, layouts/room.py): battles (310, 2023), Sagas'
        # lore counter (714.3a), day and night (730 and 702.145, 2021), aftermath (702.127),
        # craft (702.167), disturb (702.146), copies of spells (707.10), locking a door
        # (709.5g), a resolving instant or sorcery (608.2n).
        "battle_printed": "310.4a",
        "battle_enters": "310.4b",
        "battle_defense": "310.4c",
        "battle_damage": "310.6",
        "battle_zero": "310.7",
        "protector": "310.8",
        "protector_enters": "310.8a",
        "protector_one": "310.8f",
        "siege_protector": "310.11a",
        "siege_defeated": "310.11b",
        "damage_battle": "120.3h",
        "sba_battle": "704.5v",
        "sba_siege_protector": "704.5x",
        "saga_lore": "714.3a",
        "day_night": "730.1",
        "day_night_change": "730.1a",
        "daybound": "702.145b",
        "untap_day_night": "502.2",
        "day_to_night": "730.2a",
        "night_to_day": "730.2b",
        "daybound_now": "702.145c",
        "daybound_day": "702.145d",
        "nightbound": "702.145e",
        "nightbound_now": "702.145f",
        "nightbound_night": "702.145g",
        "aftermath": "702.127a",
        "craft": "702.167a",
        "craft_exiled": "702.167c",
        "disturb": "702.146a",
        "disturb_back": "702.146b",
        "replacement": "614.1a",
        "spell_graveyard": "608.2n",
        "copy_spell": "707.10",
        "copy_spell_ceases": "707.10a",
        "copy_permanent_spell": "707.10f",
        "copy_dfc_spell": "707.10g",
        "copy_token_resolves": "608.3f",
        "adventure_copy": "715.3c",
        "prototype_spell_copy": "718.3c",
        "omen_copy": "720.3c",
        "room_lock": "709.5g",
        "room_copiable": "709.5b",
    },
}

#: Face-down round three's topics the 2020 text doesn't have: mutate and merging (2020-04),
#: foretell (2021); and searching, whose keyword-action number then isn't confirmed.
_NEWER_THAN_2020: Final = frozenset(
    k for k in NEWEST if k.startswith(("merge", "mutat", "foretell"))
) | {"search"}

#: Round three's topics the 2020 and 2008 texts don't have or whose number there no seed
#: confirms (battles and day and night came later; 608.2n's and aftermath's 2020 letters are
#: unconfirmed): those versions treat these cards as plain ones (docs/decisions.md).
_ROUND_THREE: Final = frozenset(
    {
        *(k for k in NEWEST if k.startswith(("battle", "protector", "siege", "sba_", "day"))),
        "damage_battle",
        "untap_day_night",
        "night_to_day",
        "nightbound_now",
        "nightbound",
        "nightbound_night",
        "aftermath",
        "craft",
        "craft_exiled",
        "disturb",
        "disturb_back",
        "spell_graveyard",
        "copy_dfc_spell",
        "copy_permanent_spell",
        "copy_token_resolves",
        "adventure_copy",
        "room_lock",
        "room_copiable",
    }
)

#: Topics of rules the 2020 and 2008 texts don't have (Rooms, prototype, Omen; fuse's number
#: in those texts isn't confirmed from a seed).
NOT_IN_2020: Final = frozenset(
    k
    for k in NEWEST
    if k.startswith(("room", "prototype", "omen", "fuse"))
    or k == "split_fused"
    or k in _ROUND_THREE
) | (_NEWER_THAN_2020)

#: 2025-06: same numbering as newest (the change was to 712.9's text, not its number).
V2025_06: Final[dict[str, str]] = {
    **NEWEST,
    # Before station cards (721, 2025-08) merging was 728.
    **{k: "728" + r[3:] for k, r in NEWEST.items() if r.startswith("729.")},
}

_2020_DFC: Final = {
    "dfc_look": "711.2",
    "dfc_hidden": "711.3",
    "dfc_front_outside": "711.4a",
    "meld_stack": "712.3a",
    "dfc_spell": "711.4b",
    "dfc_front_up": "711.4b",
    "dfc_back_up": "711.4c",
    "mdfc_face_up": "711.4d",
    "who_transforms": "711.5",
    "transform_into_instant": "711.6",
    "cast_front": "711.7",
    "cast_transformed": "711.7",
    "cast_mdfc_face": "711.7",
    "cast_evaluated": "711.7a",
    "mdfc_land": "711.8",
    "resolve_same_face": "711.9",
    "resolve_transformed_instant": "711.9",
    "enter_front": "711.10",
    "enter_transformed": "711.10a",
    "mdfc_front_not_permanent": "711.10b",
    "dfc_face_down": "711.11",
    "face_down_no_transform": "711.11a",
    "dfc_no_face_down": "711.12",
    "dfc_exiled_face_down": "711.13",
    "transform_not_new": "711.14",
    "dfc_naming": "711.15",
    # 712 Meld Cards (2020): 712.1b back face can't be cast, 712.2 melding, 712.3a-b
    # characteristics, 712.4 leaving the battlefield. Mana value stays at 202.3b-d.
    "meld": "712.1b",
    "meld_chars": "712.3b",
    "meld_enters": "712.2",
    "meld_leaves": "712.4",
    "transform": "701.28a",
    "transform_not_dfc": "701.28c",
    "transform_instant": "701.28d",
    "transformed_permanent": "711.1",
    "meld_action": "701.37a",
    "meld_pair": "701.37b",
    "meld_stay": "701.37c",
    "meld_back": "712.1b",
    "meld_front_outside": "712.3a",
    "meld_front_up": "712.3a",
    "meld_naming": "712.11",
    "meld_no_transform": "712.1b",
    "meld_no_face_down": "712.10",
    # 201: naming a card was 201.3 (201.4 was "text that refers to the object by name");
    # 201.2b was the shared-name rule.
    "same_name": "201.2b",
    "naming": "201.3",
    "naming_split": "201.3b",
    "naming_flip": "201.3c",
    "naming_dfc": "201.3d",
    "naming_meld": "201.3e",
    "naming_adventure": "201.3f",
    # The 2020 text has no 707.2b ("can't be turned face down again"): an impossible
    # instruction is ignored.
    "face_down_again": "101.3",
    # The 2020 text has no 706.8a (double-faced tokens): a copy gets the face that is up.
    "token_copy_dfc": "706.8",
    # Before 2023 manifest was 701.34 (no disguise letter, so the instant rule was f),
    # special actions 115, spells 111; disguise, cloak and manifest dread came later.
    "face_up_special": "115.2b",
    "spell_controller": "111.2",
    "manifest": "701.34a",
    "manifest_face_up": "701.34b",
    "manifest_morph": "701.34c",
    "manifest_instant": "701.34f",
}


def _renumber(ids: dict[str, str]) -> dict[str, str]:
    """2020 numbers for the sections that moved up by one since (706-709)."""
    moved = {"707.": "706.", "708.": "707.", "709.": "708.", "710.": "709.", "715.": "715."}
    out = {}
    for key, rule in ids.items():
        for new, old in moved.items():
            if rule.startswith(new):
                rule = old + rule[len(new) :]
                break
        out[key] = rule
    return out


V2020: Final[dict[str, str]] = {
    **{k: r for k, r in _renumber(NEWEST).items() if k not in NOT_IN_2020},
    **_2020_DFC,
}

V2008: Final[dict[str, str]] = {
    **V2020,
    "flip_alt": "508.1b",
    "flip_color_cost": "508.1c",
    "flip_normal": "508.2",
    "flip": "508.2",
    "flip_one_way": "508.4",
    "flip_naming": "508.5",
    "naming_flip": "508.5",
}
