"""The syntax-tree cache of the effect language (``wonders.dsl.parser``).

What the cache must never do is change what a load gives: every tree read back from it
is the tree Lark makes of the same text, every syntax error still comes from Lark (an
error is never cached), and a cache file that is corrupt, forged into something that is
not a tree, or writable by another user is ignored.  What it is for: a start-up that
loads data parsed before imports neither Lark nor builds its parser.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Workspace, card, card_file

from wonders.dsl import lalr, parser
from wonders.dsl.errors import EffectSyntaxError
from wonders.dsl.loader import load, shipped_expansions, shipped_games
from wonders.dsl.parser import SyntaxCache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SyntaxCache:
    """A fresh cache in a file of ``tmp_path``, used by every parse of the test."""
    fresh = SyntaxCache(tmp_path / "syntax-test.json")
    monkeypatch.setattr(parser, "syntax_cache", lambda: fresh)
    return fresh


def every_shipped_load() -> None:
    for name in shipped_games():
        load([], name)
    for name, folder in shipped_expansions().items():
        load([], str(folder)) if (folder / "rules.yaml").is_file() else load([folder], "base")


def test_every_shipped_text_reads_back_as_the_tree_lark_makes(cache: SyntaxCache) -> None:
    every_shipped_load()
    cache.save()
    saved = json.loads(cache.path.read_text(encoding="utf-8"))  # type: ignore[union-attr]
    assert sum(len(texts) for texts in saved.values()) > 300  # every game's (369 when written)
    again = SyntaxCache(cache.path)
    for start, texts in saved.items():
        for text in texts:
            assert again.get(start, text) == lalr.parse(text, start), (start, text)


def test_a_load_from_the_cache_is_the_load_from_lark(cache: SyntaxCache,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The games built from cached trees are those built by parsing every text (compared
    by their full repr: every card, wonder, token and rule, effects included)."""
    first = {name: repr(load([], name).game) for name in shipped_games()}
    cache.save()
    reread = SyntaxCache(cache.path)
    monkeypatch.setattr(parser, "syntax_cache", lambda: reread)

    def no_lark(text: str, start: str) -> None:
        raise AssertionError(f"parsed again: {text!r}")

    monkeypatch.setattr(lalr, "parse", no_lark)
    for name, game in first.items():
        assert repr(load([], name).game) == game, name


def test_errors_are_never_cached_and_read_as_before(cache: SyntaxCache, ws: Workspace) -> None:
    """A syntax error is Lark's, warm cache or not: the same diagnostics twice, and nothing
    of the faulty text in the file."""
    text = card_file(card("Well", effect="pionts 1"))
    first = [d.render() for d in ws.diagnose(text)]
    assert any("E20" in line for line in first), first
    cache.save()
    assert [d.render() for d in ws.diagnose(text)] == first
    assert "pionts" not in cache.path.read_text(encoding="utf-8")  # type: ignore[union-attr]


def write(path: Path, entries: object, mode: int = 0o600) -> None:
    path.write_text(json.dumps(entries), encoding="utf-8")
    path.chmod(mode)


def test_a_forged_or_broken_entry_is_parsed_again(tmp_path: Path) -> None:
    path = tmp_path / "syntax-x.json"
    good = json.dumps(parser._encode(lalr.parse("points 2", "effects")))
    write(path, {"effects": {
        "points 2": good,
        "points 3": '{"Effects": [[], {"Span": [0, 8]}], "x": 1}',  # two keys
        "points 4": '{"Nothing": []}',  # no such node
        "points 5": '{"Cost": [[], {"Span": [0, 4]}]}',  # a cost where an effect goes
        "points 6": '"a string"',
        "points 7": "not json",
        "points 8": '{"Span": [0]}',  # a wrong number of fields
    }, "cost": ["not", "a", "mapping"]})
    cache = SyntaxCache(path)
    assert cache.get("effects", "points 2") == lalr.parse("points 2", "effects")
    for n in range(3, 9):
        assert cache.get("effects", f"points {n}") is None, n
    assert cache.get("cost", "free") is None
    assert parser.parse_effects("points 2") == lalr.parse("points 2", "effects")


def test_unreadable_or_foreign_files_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "syntax-x.json"
    tree = json.dumps(parser._encode(lalr.parse("points 2", "effects")))
    path.write_bytes(b"\x00\xff garbage")
    assert SyntaxCache(path).get("effects", "points 2") is None
    write(path, {"effects": {"points 2": tree}}, mode=0o666)  # anyone could have written it
    if hasattr(os, "getuid"):
        assert SyntaxCache(path).get("effects", "points 2") is None
    path.chmod(0o600)
    assert SyntaxCache(path).get("effects", "points 2") is not None
    assert SyntaxCache(tmp_path / "missing.json").get("effects", "points 2") is None


def test_saving_is_private_bounded_and_leaves_a_few_files(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    monkeypatch.setattr(parser, "CACHE_ENTRIES", 3)
    cache = SyntaxCache(folder / "syntax-new.json")
    for n in range(1, 6):
        cache.put("effects", f"points {n}", lalr.parse(f"points {n}", "effects"))
    cache.save()
    saved = json.loads((folder / "syntax-new.json").read_text(encoding="utf-8"))
    assert len(saved["effects"]) == 3  # only 3 new entries were kept
    if hasattr(os, "getuid"):
        assert (folder / "syntax-new.json").stat().st_mode & 0o077 == 0
        assert folder.stat().st_mode & 0o077 == 0
    for n in range(6):
        old = folder / f"syntax-old{n}.json"
        old.write_text("{}", encoding="utf-8")
        os.utime(old, (n, n))
    again = SyntaxCache(folder / "syntax-new.json")
    again.put("cost", "free", lalr.parse("free", "cost"))
    again.save()
    kept = sorted(p.name for p in folder.glob("syntax-*.json"))
    assert len(kept) == parser.CACHE_FILES and "syntax-new.json" in kept


def test_the_key_changes_with_the_grammar_and_the_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    key = parser.cache_key()
    assert key is not None and key == parser.cache_key()
    monkeypatch.setattr(parser, "grammar_text", lambda: lalr.grammar_text() + "\n// changed")
    assert parser.cache_key() not in (None, key)


def test_caching_can_be_turned_off_and_moved(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    monkeypatch.setenv("WONDERS_CACHE_DIR", str(tmp_path))
    assert parser.cache_dir() == tmp_path
    monkeypatch.setenv("WONDERS_NO_CACHE", "1")
    assert parser.cache_dir() is None
    nothing = SyntaxCache(None)
    nothing.put("effects", "points 1", lalr.parse("points 1", "effects"))
    nothing.save()  # no file, no error
    assert not list(tmp_path.iterdir())


def test_the_default_folder_is_the_users_cache_folder(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    for name in ("WONDERS_CACHE_DIR", "WONDERS_NO_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    if sys.platform == "win32":
        pytest.skip("the folder is under %LOCALAPPDATA%")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert parser.cache_dir() == tmp_path / ".cache" / "wonders"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert parser.cache_dir() == tmp_path / "xdg" / "wonders"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # not a folder the standard allows
    assert parser.cache_dir() == tmp_path / ".cache" / "wonders"
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: Path("~")))  # none found
    assert parser.cache_dir() is None  # never a folder named '~' where the command runs


def test_a_syntax_error_is_an_effect_syntax_error_either_way(cache: SyntaxCache) -> None:
    with pytest.raises(EffectSyntaxError) as first:
        parser.parse_effects("pionts 1")
    with pytest.raises(EffectSyntaxError) as second:
        parser.parse_effects("pionts 1")
    assert (first.value.code, str(first.value)) == (second.value.code, str(second.value))


# --- as a user meets it: a second start does not import Lark -----------------------------

DRIVER = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules))))
from wonders.cli import main
main(sys.argv[1:])
"""


def test_a_second_play_imports_no_lark_and_plays_the_same(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "WONDERS_NO_CACHE"}
    env["WONDERS_CACHE_DIR"] = str(tmp_path)

    def run() -> tuple[str, set[str]]:
        done = subprocess.run([sys.executable, "-c", DRIVER, "play", "--seed", "4"], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        *out, modules = done.stdout.splitlines()
        return "\n".join(out), set(json.loads(modules))

    first, cold = run()
    assert "lark" in cold and list(tmp_path.glob("syntax-*.json"))
    second, warm = run()
    assert second == first
    assert not {m for m in warm if m == "lark" or m.startswith("lark.")}
    assert "wonders.dsl.lalr" not in warm
