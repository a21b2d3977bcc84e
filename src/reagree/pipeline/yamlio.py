"""Reading the YAML files reagree is driven by (config, paper.yaml, schemas) strictly.

What it decides:

- **Numbers keep their printed text.** A number in paper.yaml is a ``PrintedNumber``: a
  float that remembers how it was printed, because "0.40" with two decimals is a claim
  about the second decimal (``reagree.pipeline.paperspec.printed_tolerance``).
- **A repeated key is an error**, naming the file, the key and both lines. PyYAML
  silently keeps the last one, which once turned a second ``claims:`` block into "1 of 1
  claims match".
- **Aliases are capped**: more than ``MAX_ALIASES`` aliases, or aliases that would expand
  the document past ``MAX_EXPANDED_VALUES`` values, are refused while the file is read,
  before anything is constructed, walked or validated. (PyYAML shares an alias's object,
  so loading a bomb is cheap; it is everything that walks the result afterwards that
  explodes: 32 levels of doubling need only 64 aliases, so the count alone is not enough.)
- **Nesting is bounded**: a list or mapping nested more than ``MAX_DEPTH`` levels deep
  is refused while the file is read, naming the file and the line (PyYAML composes
  nested nodes recursively, so 50,000 ``[`` would otherwise end in a RecursionError
  thousands of lines long). reagree's own files nest a few levels.
- **The merge key** ``<<`` (YAML 1.1: ``<<: *base`` copies the keys of the mapping
  ``base`` anchors; a mapping's own key wins over a merged one) is supported; a key
  repeated among a mapping's own keys is still an error.
- **Text is UTF-8**; anything else is one line naming the file and the byte.
- ``.nan`` and ``.inf`` are not numbers a paper prints; as a ``published`` value they
  are refused by the schema (a number that is not finite), not turned into a crash.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import yaml

__all__ = [
    "DECIMAL_MARKS",
    "MAX_ALIASES",
    "MAX_DEPTH",
    "MAX_EXPANDED_VALUES",
    "PrintedNumber",
    "YamlError",
    "data_children",
    "expanded_size",
    "load_yaml",
    "load_yaml_text",
    "plain",
    "plain_number_text",
    "printed_parts",
    "read_text",
]

MAX_ALIASES = 64
MAX_EXPANDED_VALUES = 100_000
MAX_DEPTH = 100
_MERGE_TAG = "tag:yaml.org,2002:merge"


#: The decimal marks a paper may declare (paper.yaml ``decimal:``), and the separators
#: each allows between groups of three digits of the integer part: under a decimal point a
#: comma, a thin, a narrow no-break or a no-break space (``19,991``, ``215 657``); under a
#: decimal comma a point or those spaces (``1.234,5``).
DECIMAL_MARKS = {"point": ".", "comma": ","}
_GROUP_SEPARATORS = {"point": (",", "\u2009", "\u202f", "\u00a0"), "comma": (".", "\u2009", "\u202f", "\u00a0")}
_SEPARATOR_WORDS = {",": "comma", ".": "point"}
_MINUS = ("-", "\u2212")
_NOT_FINITE = ("nan", "inf", "infinity")
_EXPONENT = re.compile(r"(?P<mantissa>.*?)(?P<exponent>[eE][+-]?[0-9]+)?")


def _integer_groups(integer: str, text: str, decimal: str) -> list[str]:
    """The integer part's groups of digits: one group, or well-formed thousands groups (1
    to 3 digits, then groups of exactly 3, one kind of separator); ValueError otherwise."""
    separators = {c for c in integer if not c.isdigit()}
    if not separators:
        return [integer] if integer else []
    if separators <= set(_GROUP_SEPARATORS[decimal]):
        separator = separators.pop() if len(separators) == 1 else None
        groups = integer.split(separator) if separator else []
        if (
            separator
            and 1 <= len(groups[0]) <= 3
            and all(len(g) == 3 for g in groups[1:])
            and all(g.isdigit() for g in groups)
        ):
            return groups
        word = _SEPARATOR_WORDS.get(separator, "separator")
        hint = (
            "; a paper that prints decimal commas (0,67) declares decimal: comma in its paper.yaml"
            if separator == ","
            else ""
        )
        example = "1.234,5" if decimal == "comma" else "19,991; 1,234,567"
        raise ValueError(
            f"{text!r} is not a printed number: a {word} between digits separates groups of three "
            f"({example}), and {text!r} has none{hint}"
        )
    raise ValueError(f"{text!r} is not a printed number")


def printed_parts(text: str, decimal: str = "point") -> tuple[str, str, bool]:
    """(plain decimal text for ``Decimal``, the printed text with a decimal point, whether it
    is a percentage) of a printed number under its paper's decimal mark. ValueError, naming
    the text and what is wrong, for anything else: a comma (under a decimal point) that does
    not separate well-formed groups of three (``0,67``, ``1,0``), an underscore (``1_0``), a
    digit outside 0-9 (Arabic-Indic, Devanagari, ...)."""
    if decimal not in DECIMAL_MARKS:
        raise ValueError(f"decimal must be one of {list(DECIMAL_MARKS)}, got {decimal!r}")
    printed = str(text).strip()
    rest = printed
    sign = rest[:1] if rest[:1] in ("+", *_MINUS) else ""
    rest = rest[len(sign) :]
    percent = rest.endswith("%")
    if percent:
        rest = rest[:-1].rstrip()
    if rest.lower() in _NOT_FINITE:  # read, so that the claim's checks can say it is not finite
        return ("-" if sign in _MINUS else "") + rest, printed, percent
    foreign = next((c for c in rest if c.isdigit() and c not in "0123456789"), None)
    if foreign is not None:
        raise ValueError(f"{printed!r} is not a printed number: it holds the digit {foreign!r}, not one of 0-9")
    if "_" in rest:
        raise ValueError(f"{printed!r} is not a printed number: an underscore is no separator in a printed number")
    parts = _EXPONENT.fullmatch(rest)
    mantissa, exponent = parts["mantissa"], parts["exponent"] or ""
    integer, mark, fraction = mantissa.partition(DECIMAL_MARKS[decimal])
    groups = _integer_groups(integer, printed, decimal)
    if (mark and not fraction.isdigit()) or not (groups or fraction) or not fraction.isascii():
        raise ValueError(f"{printed!r} is not a printed number")
    digits = "".join(groups) + (f".{fraction}" if mark else "")
    plain = ("-" if sign in _MINUS else "") + digits + exponent
    if decimal == "point":
        return plain, printed, percent
    with_point = sign + ",".join(groups) + (f".{fraction}" if mark else "") + exponent + ("%" if percent else "")
    return plain, with_point, percent


def plain_number_text(text: str, decimal: str = "point") -> tuple[str, bool]:
    """A printed number's text as plain decimal text, and whether it was a percentage:
    surrounding space, thousands separators and a trailing ``%`` dropped, a Unicode minus
    read as ``-``, a leading ``+`` dropped (``"19,991"`` -> ``"19991"``, ``"9.3%"`` ->
    (``"9.3"``, True)). The digits, trailing zeros included, are kept as printed. Only
    well-formed thousands groups are separators (``printed_parts``)."""
    plain, _, percent = printed_parts(text, decimal)
    return plain, percent


class PrintedNumber(float):
    """A float that remembers the text it was printed as (``0.50``, ``12.0``, ``9.3%``,
    ``19,991``): its value is the number in its own units (``9.3%`` is 9.3, in percent).
    ``printed`` is the text as printed; ``text`` the same with a decimal point (under
    ``decimal="comma"``, ``0,67`` has the text ``0.67``), the form every reader takes."""

    text: str
    printed: str

    def __new__(cls, text: str, decimal: str = "point") -> "PrintedNumber":
        plain, with_point, _ = printed_parts(text, decimal)
        value = super().__new__(cls, float(plain))
        value.text = with_point
        value.printed = text
        return value


class YamlError(ValueError):
    """A YAML file reagree cannot read as written; the message names file and line."""


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys and too many aliases."""

    def __init__(self, stream, name: str):
        super().__init__(stream)
        self.name = name
        self.aliases_seen = 0
        self.depth = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.SequenceStartEvent, yaml.MappingStartEvent):
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    mark = self.peek_event().start_mark
                    raise YamlError(
                        f"{self.name}, line {mark.line + 1}: YAML nested more than {MAX_DEPTH} levels "
                        "deep; reagree refuses files nested this deep"
                    )
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1
        if self.check_event(yaml.AliasEvent):
            self.aliases_seen += 1
            if self.aliases_seen > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise YamlError(
                    f"{self.name}, line {mark.line + 1}: more than {MAX_ALIASES} YAML aliases; "
                    "reagree refuses files that expand aliases this much"
                )
        return super().compose_node(parent, index)

    def compose_document(self):
        document = super().compose_document()
        if self.aliases_seen and expanded_size(document) > MAX_EXPANDED_VALUES:
            raise YamlError(
                f"{self.name}: its YAML aliases expand to more than {MAX_EXPANDED_VALUES:,} values; "
                "reagree refuses files that expand aliases this much"
            )
        return document

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG:  # merged keys may be overridden by the mapping's own (SafeLoader's merge)
                continue
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if key in seen:
                raise YamlError(
                    f"{self.name}, line {line}: key {key!r} appears twice in one mapping "
                    f"(first on line {seen[key]}); YAML would silently keep only the last one"
                )
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


def expanded_size(root: object, children: Callable[[object], list] | None = None) -> int:
    """How many nodes ``root`` stands for with every shared node counted each time it is
    referenced (an alias expanded), capped just above ``MAX_EXPANDED_VALUES``; a cycle (an
    alias inside its own anchor) counts as too many. Each distinct node is visited once,
    so a bomb costs no more than its text; iterative, so deep nesting cannot hit the
    recursion limit. ``children``: a node's children (default: a composed YAML node's;
    ``data_children`` for loaded lists and mappings)."""
    children = children or _children
    cap = MAX_EXPANDED_VALUES + 1
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[object, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            on_path.discard(id(node))
            sizes[id(node)] = min(1 + sum(sizes[id(child)] for child in children(node)), cap)
        elif id(node) in on_path:
            return cap  # expands forever
        elif id(node) not in sizes:
            on_path.add(id(node))
            stack.append((node, True))
            stack.extend((child, False) for child in children(node))
    return sizes[id(root)]


def data_children(value: object) -> list:
    """The children of loaded YAML data: a mapping's values, a list's items."""
    return list(value.values()) if isinstance(value, dict) else list(value) if isinstance(value, list) else []


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


class _PrintedLoader(_StrictLoader):
    pass


def _number(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> float:
    text = loader.construct_scalar(node)
    try:
        return PrintedNumber(text)
    except ValueError:  # .inf, .nan, 0x1F, 1_000: YAML's own reading, no printed precision
        if node.tag.endswith(":float"):
            return yaml.SafeLoader.construct_yaml_float(loader, node)
        return yaml.SafeLoader.construct_yaml_int(loader, node)


_PrintedLoader.add_constructor("tag:yaml.org,2002:float", _number)
_PrintedLoader.add_constructor("tag:yaml.org,2002:int", _number)


def _load(text: str, name: str, loader_class) -> object:
    loader = loader_class(text, name)
    try:
        return loader.get_single_data()
    except YamlError:
        raise
    except yaml.YAMLError as error:
        raise YamlError(f"{name}: not valid YAML: {error}") from None
    finally:
        loader.dispose()


def read_text(path: str | Path) -> str:
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise YamlError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None


def load_yaml(path: str | Path, printed_numbers: bool = False) -> object:
    """One YAML document, strictly: duplicate keys and alias bombs are errors naming the
    file and line. With ``printed_numbers`` every number is a ``PrintedNumber``."""
    return _load(read_text(path), str(path), _PrintedLoader if printed_numbers else _StrictLoader)


def load_yaml_text(text: str, name: str = "<text>") -> object:
    return _load(text, name, _StrictLoader)


def plain(value: object) -> object:
    """PrintedNumbers as plain floats (or ints where printed as whole numbers), recursively,
    for JSON-schema validation."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, PrintedNumber):
        text = value.text.strip().lstrip("+")
        if text.lstrip("-").isdigit():
            return int(text)
        return float(value)
    return value
