"""Reading a socket message as an action: pure, no socket and no database."""

import json
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.match.moves import ActionRefused
from games.table.socket_actions import MAX_MESSAGE_BYTES, parse_socket_action


def parse(message) -> tuple[dict, object]:
    action = parse_socket_action(json.dumps(message))
    return action.payload, action.version


def refusal(text_data, bytes_data=None) -> str:
    with pytest.raises(ActionRefused) as refused:
        parse_socket_action(text_data, bytes_data)
    return refused.value.code


def test_a_played_card_as_htmx_sends_it():
    assert parse({"do": "play", "card": "4C", "v": 17}) == ({"do": "play", "card": "4C", "face_down": False}, 17)


@pytest.mark.parametrize("ticked", ["1", "true", "on", True])
def test_a_ticked_face_down_checkbox_plays_the_card_face_down(ticked):
    payload, _ = parse({"do": "play", "card": "4C", "v": 3, "face_down": ticked})
    assert payload["face_down"] is True


@pytest.mark.parametrize("unticked", ["0", "", "false", "off", False, None, [], "yes please"])
def test_anything_else_plays_the_card_face_up(unticked):
    payload, _ = parse({"do": "play", "card": "4C", "v": 3, "face_down": unticked})
    assert payload["face_down"] is False


def test_no_face_down_value_at_all_plays_face_up():
    # htmx leaves an unticked checkbox out of the message.
    payload, _ = parse({"do": "play", "card": "4C", "v": 3})
    assert payload["face_down"] is False


def test_face_down_on_another_action_is_passed_on_for_the_engine_to_refuse():
    payload, _ = parse({"do": "raise", "v": 3, "face_down": "1"})
    assert payload == {"do": "raise", "face_down": True}


@pytest.mark.parametrize("sent, version", [("17", 17), ("0", 0), (17, 17)])
def test_a_version_sent_as_a_string_of_digits_is_a_number(sent, version):
    assert parse({"do": "raise", "v": sent})[1] == version


@pytest.mark.parametrize("sent", ["", "-1", "1.5", "17a", "²", "٣", 1.5, None, [17], {"n": 17}, True])
def test_any_other_version_is_passed_on_unchanged_for_the_move_service_to_refuse(sent):
    assert parse({"do": "raise", "v": sent})[1] == sent


def test_a_card_is_only_in_the_payload_when_one_was_sent():
    assert "card" not in parse({"do": "raise", "v": 1})[0]
    assert "card" not in parse({"do": "raise", "v": 1, "card": None})[0]


def test_unknown_keys_are_dropped():
    payload, _ = parse({"do": "accept", "v": 2, "HEADERS": {"HX-Request": "true"}, "seat": 3})
    assert payload == {"do": "accept", "face_down": False}


@pytest.mark.parametrize(
    "text",
    ["{not json", "", json.dumps(["play"]), json.dumps("play"), json.dumps(17), json.dumps(None), json.dumps(True)],
)
def test_text_that_is_not_a_json_object_is_malformed(text):
    assert refusal(text) == "malformed"


def test_binary_frames_and_empty_frames_are_malformed():
    assert refusal(None, b'{"do": "raise"}') == "malformed"
    assert refusal(None) == "malformed"


def test_a_message_over_the_size_limit_is_too_large_even_when_valid():
    padded = json.dumps({"do": "raise", "v": 1, "pad": "x" * MAX_MESSAGE_BYTES})
    assert refusal(padded) == "too_large"


def test_the_size_limit_counts_bytes_not_characters():
    text = json.dumps({"do": "raise", "v": 1, "pad": "é" * (MAX_MESSAGE_BYTES // 2)}, ensure_ascii=False)
    assert len(text) < MAX_MESSAGE_BYTES < len(text.encode())
    assert refusal(text) == "too_large"


def test_a_refusal_says_why_in_words():
    with pytest.raises(ActionRefused) as refused:
        parse_socket_action("[1]")
    assert str(refused.value.message)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 1000 + "]" * 1000,  # fits the size limit, exhausts the JSON parser's stack (RecursionError)
        '{"do": ' + "[" * 1000 + "]" * 1000 + "}",
    ],
)
def test_deeply_nested_json_is_malformed_not_a_crash(text):
    assert len(text.encode()) <= MAX_MESSAGE_BYTES
    assert refusal(text) == "malformed"


@pytest.mark.parametrize("version", ["²", "¹²", "⁵", "①", "٣", "௧"])
def test_digits_that_are_not_ascii_are_not_a_version(version):
    # str.isdigit() says yes to all of them and int() refuses them: the version stays as sent,
    # for the move service to refuse as malformed.
    assert parse({"do": "raise", "v": version})[1] == version


@pytest.mark.parametrize(
    "message",
    [
        {"do": ["play"], "v": 1},
        {"do": {"play": 1}, "v": 1},
        {"do": 7, "v": 1},
        {"do": "play", "card": ["4C"], "v": 1},
        {"do": "play", "card": {"4": "C"}, "v": 1},
        {"do": "play", "card": 4, "v": 1},
        {"do": "play", "card": "4C" * 100, "v": 1},
    ],
)
def test_an_action_or_card_that_is_not_short_text_is_malformed(message):
    assert refusal(json.dumps(message)) == "malformed"


@pytest.mark.parametrize("escaped", ['{"do": "play", "card": "\\ud800", "v": 1}', '{"do": "\\udfff", "v": 1}'])
def test_a_lone_surrogate_is_malformed_so_it_is_never_echoed_back(escaped):
    # JSON may escape half of a UTF-16 pair; echoed in a refusal it could not be sent as UTF-8.
    assert refusal(escaped) == "malformed"


def test_text_that_is_not_valid_unicode_is_measured_without_crashing():
    assert refusal("\ud800" * (MAX_MESSAGE_BYTES // 2)) == "too_large"
    assert refusal("\ud800") == "malformed"


def sendable(value) -> bool:
    try:
        str(value).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_parsed_or_refused(text: str) -> None:
    """The parser's whole contract: a SocketAction whose action and card are short sendable text, or a
    refusal with a known code. Nothing else may come out (no other exception)."""
    try:
        action = parse_socket_action(text)
    except ActionRefused as refused:
        assert refused.code in ("malformed", "too_large")
        assert sendable(refused.message)
        return
    assert set(action.payload) <= {"do", "card", "face_down"}
    assert isinstance(action.payload["face_down"], bool)
    for key in ("do", "card"):
        value = action.payload.get(key)
        assert value is None or (isinstance(value, str) and len(value) <= 16 and sendable(value))


JSON_LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
JSON_VALUES = st.recursive(
    JSON_LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
)
FIELDS = st.sampled_from(["do", "card", "v", "face_down", "x"])
ACTIONS = st.sampled_from(["play", "raise", "accept", "run", "", "PLAY"])
NEAR_ACTIONS = st.dictionaries(FIELDS, ACTIONS | st.sampled_from(["4C", "²", "①", "17"]) | JSON_VALUES, max_size=5)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_any_text_is_parsed_or_refused(text):
    check_parsed_or_refused(text)


@settings(max_examples=400, deadline=None)
@given(NEAR_ACTIONS | JSON_VALUES)
def test_fuzz_any_json_is_parsed_or_refused(message):
    check_parsed_or_refused(json.dumps(message))


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=1200), st.sampled_from(["[", '{"a":']))
def test_fuzz_nesting_of_any_depth_is_parsed_or_refused(depth, opener):
    closer = "]" if opener == "[" else "}"
    inner = "1" if opener != "[" else ""
    # Hypothesis raises the recursion limit while a test runs; daphne runs with Python's default (1,000).
    raised = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        check_parsed_or_refused(opener * depth + inner + closer * depth)
    finally:
        sys.setrecursionlimit(raised)
