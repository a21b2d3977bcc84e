"""What reagree refuses, each in one line that touches nothing: a name that is not a
source of the paper (`reagree accept`), an output path that is not a regular file, an
input that is not one (a device reads forever, a FIFO blocks), a table beyond the byte
bound, a malformed record, a paper id that is a configuration key; and a record deleted
while fetched copies are still there, which re-fetches them rather than trusting them.

Unit tests on tmp folders; whatever could block (a FIFO) runs under ``no_hang``, so a
hang fails the test instead of holding the suite.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import stat
from pathlib import Path

import pytest

from reagree.cli import main as reagree
from reagree.pipeline.fetch import Wanted, fetch, fetch_all, mirror_path
from reagree.pipeline.pins import fetch_entry, inspect_inputs, read_record, record_path
from reagree.pipeline.tables import write_text_atomic

from conftest import FIXTURES
from test_pinned_inputs import fetch_small, small  # noqa: F401 (small is a fixture)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Hung(Exception):
    """Not an OSError: the command line's own handler must not swallow it."""


@contextlib.contextmanager
def no_hang(seconds: float = 10):
    """Fail, instead of blocking the suite, when the body is still running after ``seconds``
    (SIGALRM interrupts a blocking open or read of a FIFO in the main thread)."""

    def expire(signum, frame):
        raise Hung(f"still blocked after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def snapshot(folder: Path) -> dict:
    """Every path under ``folder`` with its kind and, for files, its bytes."""
    seen = {}
    for path in sorted(folder.rglob("*")):
        mode = path.lstat().st_mode
        seen[path] = path.read_bytes() if stat.S_ISREG(mode) else stat.S_IFMT(mode)
    return seen


# ====================================================================== 1. accept takes a name, not a path


@pytest.fixture
def project(tmp_path):
    """A checkout with the demo paper (sources parts/part_{a,b,c}.tsv, part_a pinned, and
    notes/README.txt), its record, one file on disk, and files outside data/demo/."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "demo_paper", root / "workflow" / "papers" / "demo")
    notes = root / "data" / "demo" / "notes" / "README.txt"
    notes.parent.mkdir(parents=True)
    notes.write_text("notes\n")
    (root / "data" / "demo.sha256").write_text(sha(b"notes\n") + "  demo/notes/README.txt\n")
    (root / "victim.txt").write_text("not reagree's\n")
    (root / "data" / "other").mkdir()
    (root / "data" / "other" / "pinned.tsv").write_text("another paper's file\n")
    return root


@pytest.mark.parametrize(
    "name",
    [
        "../../victim.txt",
        "../other/pinned.tsv",
        "/etc/hostname",
        "notes/../../victim.txt",
        "notes//README.txt",
        "./notes/README.txt",
    ],
)
def test_accept_refuses_a_name_that_is_not_a_relative_path_inside_the_papers_folder(project, name, capsys):
    before = snapshot(project)
    assert reagree(["accept", "demo", name, "0" * 64, "--root", str(project)]) == 2
    assert one_line(capsys.readouterr().err) == (
        f"reagree accept: demo: source name {name!r} must be a relative path of segments made of letters, digits, "
        "'.', '_' and '-' (no '..', no leading '/'); nothing was changed"
    )
    assert snapshot(project) == before


@pytest.mark.parametrize("name", ["notes/OTHER.txt", "parts/part_z.tsv", "parts/part_a.tsv.bak", "demo.sha256"])
def test_accept_refuses_a_name_no_source_of_the_paper_produces(project, name, capsys):
    before = snapshot(project)
    assert reagree(["accept", "demo", name, "0" * 64, "--root", str(project)]) == 2
    assert one_line(capsys.readouterr().err) == (
        f"reagree accept: demo: no source in {project / 'workflow' / 'papers' / 'demo' / 'paper.yaml'} produces "
        f"{name!r} under any setting; its sources produce: ['notes/README.txt', 'parts/part_{{part}}.tsv']; "
        "nothing was changed"
    )
    assert snapshot(project) == before


def test_accept_takes_a_name_any_setting_of_the_paper_produces(project, capsys):
    """parts/part_b.tsv: the setting parts may hold b (settings.schema.yaml's enum), even
    though no configuration here asks for it."""
    part_b = project / "data" / "demo" / "parts" / "part_b.tsv"
    part_b.parent.mkdir()
    part_b.write_text("b\n")
    assert reagree(["accept", "demo", "parts/part_b.tsv", "1" * 64, "--root", str(project)]) == 0
    assert read_record("demo", project / "data")["parts/part_b.tsv"] == "1" * 64
    assert not part_b.exists()  # other bytes than the accepted ones: the next run fetches it


def test_accept_all_records_only_files_the_sources_produce(project, capsys):
    stray = project / "data" / "demo" / "stray.tsv"
    stray.write_text("not a source\n")
    (project / "data" / "demo" / "notes" / "README.txt").write_text("edited\n")
    assert reagree(["accept", "demo", "--all", "--root", str(project)]) == 0
    assert read_record("demo", project / "data") == {"notes/README.txt": sha(b"edited\n")}
    assert stray.read_text() == "not a source\n"


def test_a_record_line_naming_a_path_outside_the_folder_is_malformed(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    line = f"{'0' * 64}  p/../../victim.txt"
    (data / "p.sha256").write_text(f"{sha(b'a')}  p/a.tsv\n{line}\n")
    with pytest.raises(ValueError) as raised:
        read_record("p", data)
    assert str(raised.value) == f"{data / 'p.sha256'}, line 2: expected '<sha256>  p/<name>', got {line!r}"


# ====================================================================== 2. outputs replace only regular files


def hostile(tmp_path: Path, kind: str) -> tuple[Path, callable]:
    """An output path that is ``kind``, and a check that it is still what it was."""
    out = tmp_path / "out" / "result.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    if kind == "symlink":
        target = tmp_path / "elsewhere.txt"
        target.write_text("the link's target\n")
        out.symlink_to(target)
        return out, lambda: out.is_symlink() and target.read_text() == "the link's target\n"
    if kind == "dangling symlink":
        out.symlink_to(tmp_path / "nowhere.txt")
        return out, lambda: out.is_symlink() and not (tmp_path / "nowhere.txt").exists()
    if kind == "fifo":
        os.mkfifo(out)
        return out, lambda: stat.S_ISFIFO(out.lstat().st_mode)
    out.mkdir()
    (out / "inside.txt").write_text("kept\n")
    return out, lambda: out.is_dir() and (out / "inside.txt").read_text() == "kept\n"


KINDS = {
    "symlink": "a symbolic link",
    "dangling symlink": "a symbolic link",
    "fifo": "a FIFO (named pipe)",
    "folder": "a folder",
}


def refusal(out: Path, kind: str) -> str:
    what = KINDS[kind] + (f" to {os.readlink(out)}" if "symlink" in kind else "")
    return (
        f"{out} is {what}: reagree writes an output only to a regular file or a new path, never over a link, "
        "a device, a FIFO, a socket or a folder; nothing was written"
    )


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if ".part" in p.name]


@pytest.mark.parametrize("kind", list(KINDS))
def test_write_text_atomic_refuses_anything_but_a_regular_file(tmp_path, kind):
    out, unchanged = hostile(tmp_path, kind)
    with no_hang(), pytest.raises(ValueError) as raised:
        write_text_atomic(out, "{}\n")
    assert str(raised.value) == refusal(out, kind)
    assert unchanged() and not leftovers(tmp_path)


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_figure_refuses_anything_but_a_regular_file(tmp_path, kind):
    import matplotlib.pyplot as plt

    from reagree.plots import save_figure

    out, unchanged = hostile(tmp_path, kind)
    with no_hang(), pytest.raises(ValueError) as raised:
        save_figure(plt.figure(), out)
    assert str(raised.value) == refusal(out, kind)
    assert unchanged() and not leftovers(tmp_path)


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_fetch_refuses_a_destination_that_is_not_a_regular_file(tmp_path, kind):
    mirror = tmp_path / "mirror"
    url = "https://example.org/d/labels.tsv"
    mirror_path(url, mirror).parent.mkdir(parents=True)
    mirror_path(url, mirror).write_text("item\tA\n")
    out, unchanged = hostile(tmp_path, kind)
    with no_hang(), pytest.raises(ValueError) as raised:
        fetch(url, out, mirror=mirror, timeout=5, retries=3, log=lambda s: None)
    assert str(raised.value) == refusal(out, kind)
    assert unchanged() and not leftovers(tmp_path)


AUDITED = "unit,rater,label\n1,a,x\n1,b,x\n2,a,y\n2,b,x\n"


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_output_option_of_the_command_line_refuses_before_it_works(tmp_path, kind, capsys):
    """audit --json, claims -o, fetch DEST: refused up front, in one line, exit 2."""
    table = tmp_path / "t.csv"
    table.write_text(AUDITED)
    mirror = tmp_path / "mirror"
    url = "https://example.org/d/labels.tsv"
    mirror_path(url, mirror).parent.mkdir(parents=True)
    mirror_path(url, mirror).write_text("item\tA\n")
    values = tmp_path / "values.tsv"
    values.write_text("key\tvalue\n")
    paper = FIXTURES / "demo_paper" / "paper.yaml"
    out, unchanged = hostile(tmp_path, kind)
    for command, argv in {
        "audit": ["audit", str(table), "--bootstrap", "0", "--json", str(out)],
        "claims": ["claims", str(paper), str(values), "-o", str(out)],
        "fetch": ["fetch", url, str(out), "--mirror", str(mirror)],
    }.items():
        with no_hang():
            assert reagree(argv) == 2, command
        captured = capsys.readouterr()
        assert one_line(captured.err) == f"reagree {command}: {refusal(out, kind)}"
        assert captured.out == ""  # refused before the audit ran
        assert unchanged() and not leftovers(tmp_path)


@pytest.mark.parametrize("kind", ["fifo", "file"])
def test_audit_out_names_a_folder_or_a_new_path(tmp_path, kind, capsys):
    table = tmp_path / "t.csv"
    table.write_text(AUDITED)
    out = tmp_path / "out"
    if kind == "fifo":
        os.mkfifo(out)
    else:
        out.write_text("kept\n")
    with no_hang():
        assert reagree(["audit", str(table), "--bootstrap", "0", "--out", str(out)]) == 2
    captured = capsys.readouterr()
    what = "a FIFO (named pipe)" if kind == "fifo" else "a regular file"
    assert one_line(captured.err) == (
        f"reagree audit: {out} is {what}, not a folder: --out names the folder the "
        "audit's files are written to; nothing was written"
    )
    assert captured.out == "" and (
        stat.S_ISFIFO(out.lstat().st_mode) if kind == "fifo" else out.read_text() == "kept\n"
    )


def test_a_device_as_an_output_is_refused_before_it_is_opened(tmp_path, capsys):
    """/dev/null: as root the old rename replaced the device with a regular file. Only the
    refusal is exercised, which happens before the path is opened for writing."""
    from reagree.files import UnsafePath, check_output

    device = Path("/dev/null")
    assert stat.S_ISCHR(device.stat().st_mode)
    with pytest.raises(UnsafePath) as raised:
        check_output(device)
    message = (
        "/dev/null is a character device: reagree writes an output only to a regular file or a new path, never "
        "over a link, a device, a FIFO, a socket or a folder; nothing was written"
    )
    assert str(raised.value) == message
    table = tmp_path / "t.csv"
    table.write_text(AUDITED)
    assert reagree(["audit", str(table), "--bootstrap", "0", "--json", str(device)]) == 2
    assert one_line(capsys.readouterr().err) == f"reagree audit: {message}"
    assert stat.S_ISCHR(device.stat().st_mode)


# ====================================================================== 5. a deleted record re-trusts nothing

SOURCES = [{"name": f"{part}.tsv", "url": f"https://example.org/p/{part}.tsv", "sha256": None} for part in "ab"]


@pytest.fixture
def fetched(small):  # noqa: F811 (the fixture imported above)
    """test_pinned_inputs's two-file mirror, fetched and recorded."""
    tmp_path, mirror = small
    fetch_small(tmp_path, mirror, ["a.tsv", "b.tsv"])
    return tmp_path, mirror, tmp_path / "data"


def test_a_deleted_record_fetches_every_unrecorded_copy_again_from_its_source(fetched):
    """The record is deleted and the mirror's b.tsv changes: the copies in data/ are not
    recorded (their origin is no source of this run); a run removes them, says so in one
    line, and records what the sources bring, so the results follow the source."""
    tmp_path, mirror, data = fetched
    record_path("p", data).unlink()
    mirror_path("https://example.org/p/b.tsv", mirror).write_text("item\tA\n1\tB\n")
    before = snapshot(data)
    dry = inspect_inputs("p", SOURCES, mirror=mirror, act=False, data=data)
    assert not dry.problems and snapshot(data) == before
    assert dry.notes == [
        f"{data / 'p'} holds 2 file(s) of p (a.tsv, b.tsv) without a sha256 in {data / 'p.sha256'} "
        "(the record is missing): a copy whose origin is not this run's source is never recorded; "
        "a run removes them, to fetch them again from their sources and record what they bring "
        "(this dry run changes nothing)"
    ]
    found = inspect_inputs("p", SOURCES, mirror=mirror, act=True, data=data)
    assert not found.problems and not record_path("p", data).exists()
    assert found.notes == [
        f"{data / 'p'} holds 2 file(s) of p (a.tsv, b.tsv) without a sha256 in "
        f"{data / 'p.sha256'} (the record is missing): a copy whose origin is not this run's "
        "source is never recorded; removed them, to fetch them again from their sources and "
        "record what they bring"
    ]
    assert not (data / "p" / "a.tsv").exists() and not (data / "p" / "b.tsv").exists()
    fetch_small(tmp_path, mirror, ["a.tsv", "b.tsv"])  # what the fetch jobs of the run do
    assert read_record("p", data) == {"a.tsv": sha(b"item\tA\n1\ta\n"), "b.tsv": sha(b"item\tA\n1\tB\n")}


def test_a_record_that_lost_one_line_fetches_only_that_file_again(fetched):
    tmp_path, mirror, data = fetched
    record = record_path("p", data)
    record.write_text(record.read_text().splitlines()[0] + "\n")  # a.tsv only
    found = inspect_inputs("p", SOURCES, mirror=mirror, act=True, data=data)
    assert found.notes == [
        f"{data / 'p'} holds 1 file(s) of p (b.tsv) without a sha256 in {record}: a copy whose "
        "origin is not this run's source is never recorded; removed them, to fetch them again "
        "from their sources and record what they bring"
    ]
    assert (data / "p" / "a.tsv").exists() and not (data / "p" / "b.tsv").exists()


def test_a_deleted_record_with_a_local_source_copies_the_edited_file_again(tmp_path):
    """A `path:` source edited after its copy was made: with the record deleted, the stale
    copy is not recorded; the run copies the local file again."""
    local = tmp_path / "exports" / "labels.tsv"
    local.parent.mkdir()
    local.write_text("item\tA\n1\told\n")
    entry = {"name": "labels.tsv", "path": str(local)}
    data = tmp_path / "data"
    out = [str(data / "p" / "labels.tsv")]
    fetch_entry("p", entry, {}, out, mirror=None, timeout=5, retries=1, log=lambda s: None, data=data)
    record_path("p", data).unlink()
    local.write_text("item\tA\n1\tnew\n")
    sources = [{"name": "labels.tsv", "url": None, "path": str(local), "sha256": None}]
    found = inspect_inputs("p", sources, act=True, data=data)
    assert not found.problems and not (data / "p" / "labels.tsv").exists()
    fetch_entry("p", entry, {}, out, mirror=None, timeout=5, retries=1, log=lambda s: None, data=data)
    assert (data / "p" / "labels.tsv").read_text() == "item\tA\n1\tnew\n"
    assert read_record("p", data) == {"labels.tsv": sha(b"item\tA\n1\tnew\n")}


# ====================================================================== 6. audit reads regular files, bounded


@pytest.mark.parametrize("what", ["fifo", "device", "folder"])
def test_audit_refuses_a_table_that_is_not_a_regular_file_before_reading_it(tmp_path, what, capsys):
    if what == "fifo":
        table = tmp_path / "labels.csv"
        os.mkfifo(table)
        kind = "a FIFO (named pipe)"
    elif what == "device":
        table, kind = Path("/dev/zero"), "a character device"
    else:
        table, kind = tmp_path, "a folder"
    with no_hang():
        assert reagree(["audit", str(table), "--bootstrap", "0"]) == 2
    assert one_line(capsys.readouterr().err) == (
        f"reagree audit: {table} is {kind}, not a regular file: reagree reads tables only from regular files"
    )


def test_a_dataset_that_is_not_a_regular_file_is_refused_by_the_audit_rule(tmp_path):
    from reagree.audit import audit_file

    table = tmp_path / "labels.csv"
    os.mkfifo(table)
    with no_hang(), pytest.raises(ValueError, match=r"is a FIFO \(named pipe\), not a regular file"):
        audit_file(table, draws=0, show_progress=False)


def test_audit_reads_at_most_its_byte_bound_and_says_how_to_raise_it(tmp_path, capsys):
    table = tmp_path / "labels.csv"
    table.write_text(AUDITED)
    size = table.stat().st_size
    assert reagree(["audit", str(table), "--bootstrap", "0", "--max-bytes", str(size - 1)]) == 2
    assert one_line(capsys.readouterr().err) == (
        f"reagree audit: {table} is larger than {size - 1} B, the most reagree reads of one table; raise the "
        "bound with --max-bytes (a datasets: entry: max_bytes) if the table is meant to be this large"
    )
    assert reagree(["audit", str(table), "--bootstrap", "0", "--max-bytes", str(size)]) == 0


def test_the_audit_help_states_the_byte_bound(capsys):
    with pytest.raises(SystemExit):
        reagree(["audit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--max-bytes BYTES" in text and "(default: 2 GiB)" in text


# ====================================================================== 12. a malformed record, in one line


def test_a_record_line_that_is_not_utf8_is_named_by_file_and_line(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "p.sha256").write_bytes(f"{sha(b'a')}  p/a.tsv\n".encode() + b"\xff\xfe  p/b.tsv\n")
    with pytest.raises(ValueError) as raised:
        read_record("p", data)
    assert str(raised.value) == (
        f"{data / 'p.sha256'}, line 2: not UTF-8 text; expected '<sha256>  p/<name>' "
        "(delete the line: the file it names is then fetched again and recorded)"
    )


def test_a_malformed_record_stops_a_run_in_one_line(tmp_path, capsys):
    """The start of a run (common.smk) turns the record's error into Snakemake's one-line
    WorkflowError, and `reagree accept` prints it in one line."""
    from conftest import ROOT

    rule = (ROOT / "workflow" / "rules" / "common.smk").read_text()
    inspect = re.search(r"inspect_inputs\(\s*_paper_id", rule).start()
    assert rule.rfind("try:", 0, inspect) > rule.rfind("\n    for _paper_id in PAPERS", 0, inspect)
    assert "except ValueError as error:" in rule[inspect : inspect + 600]
    root = tmp_path
    shutil.copytree(FIXTURES / "demo_paper", root / "workflow" / "papers" / "demo")
    (root / "data").mkdir()
    (root / "data" / "demo.sha256").write_bytes(b"\xff  demo/notes/README.txt\n")
    assert reagree(["accept", "demo", "notes/README.txt", "--root", str(root)]) == 2
    assert one_line(capsys.readouterr().err) == (
        f"reagree accept: {root / 'data' / 'demo.sha256'}, line 1: not UTF-8 text; expected "
        "'<sha256>  demo/<name>' (delete the line: the file it names is then fetched again and recorded)"
    )


# ====================================================================== 13. paper ids that are configuration keys


@pytest.mark.parametrize("paper_id", ["mirror", "papers", "fetch", "bootstrap", "datasets"])
def test_new_paper_refuses_a_configuration_key_as_its_id(tmp_path, paper_id, capsys):
    (tmp_path / "workflow" / "papers").mkdir(parents=True)
    assert reagree(["new-paper", paper_id, "--root", str(tmp_path)]) == 2
    err = one_line(capsys.readouterr().err)
    assert err.startswith(f"reagree new-paper: paper id {paper_id!r} is a key of config.yaml (")
    assert err.endswith("): a paper's settings live under its id there, so it cannot be one of them; choose another id")
    assert not any((tmp_path / "workflow" / "papers").iterdir())


def test_every_top_level_key_of_the_config_schema_is_reserved():
    """Derived from the schema, so a new configuration key is reserved at once."""
    from reagree.pipeline.scaffold import reserved_ids
    from reagree.pipeline.settings import load_schema, schema_path

    assert reserved_ids() == set(load_schema(schema_path("config"))["properties"])
    assert {"mirror", "papers", "fetch", "bootstrap", "datasets"} <= reserved_ids()


def test_a_paper_folder_named_as_a_configuration_key_is_named_in_one_line(tmp_path):
    from reagree.pipeline.settings import load_schema, schema_path, split_paper_settings

    (tmp_path / "papers" / "mirror").mkdir(parents=True)
    (tmp_path / "papers" / "mirror" / "paper.yaml").write_text("id: mirror\n")
    with pytest.raises(ValueError) as raised:
        split_paper_settings({"mirror": None}, tmp_path, load_schema(schema_path("config")))
    assert str(raised.value) == (
        f"{tmp_path / 'papers' / 'mirror'}: a paper folder may not be named as a key of "
        "config.yaml ('mirror'); rename it"
    )


# ====================================================================== 14. a local source that is not a file


@pytest.mark.parametrize("what", ["folder", "fifo", "device", "missing"])
def test_a_local_source_that_is_not_a_regular_file_says_what_it_is(tmp_path, what):
    local = {
        "folder": tmp_path / "exports",
        "fifo": tmp_path / "labels.fifo",
        "device": Path("/dev/zero"),
        "missing": tmp_path / "gone.tsv",
    }[what]
    if what == "folder":
        local.mkdir()
    elif what == "fifo":
        os.mkfifo(local)
    phrase = {
        "folder": "is a folder, not a regular file",
        "fifo": "is a FIFO (named pipe), not a regular file",
        "device": "is a character device, not a regular file",
        "missing": "does not exist",
    }[what]
    sources = [{"name": "labels.tsv", "url": None, "path": str(local), "sha256": None}]
    data = tmp_path / "data"
    with no_hang():
        found = inspect_inputs("p", sources, act=True, data=data)
    assert found.problems == [
        f"{data / 'p' / 'labels.tsv'}: its local source file {local} {phrase} (seen from "
        f"{Path.cwd()}); fix its path under sources in workflow/papers/p/paper.yaml"
    ]
    with no_hang(), pytest.raises(Exception) as raised:
        fetch_all(
            [Wanted(f"local file {local}", data / "p" / "labels.tsv", local=local)],
            timeout=5,
            retries=3,
            log=lambda s: None,
            raise_first=True,
        )
    assert str(raised.value) == f"the local source file {local} {phrase}"
    assert not (data / "p" / "labels.tsv").exists()
