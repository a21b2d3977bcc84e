"""The workflow's view of the papers: which are enabled, with which settings, what they
fetch, and what each paper's rules build.

Used by the Snakefile at parse time and by the ``reagree`` command. A paper id in
``config["papers"]`` must be a folder ``workflow/papers/<id>/`` holding ``paper.yaml`` and
``rules.smk``; anything else stops the run with a message naming the ``papers`` key and
the ids that do exist. A paper's sources are expanded under its settings
(``reagree.pipeline.sources``), so only the files the configuration needs are fetched.

**The registry.** ``workflow/rules/common.smk`` opens one ``Registry`` of the enabled
papers (``open_registry``) before any paper's rules are read. A paper's ``rules.smk`` (a
Snakemake module of its own: the Snakefile's ``module``/``use rule *``, so its globals are
its own) imports it, takes its own ``PaperBuild`` and registers what the generic rules
need, each path read from the rule that writes it, so it is written once:

    from reagree.pipeline.paper_registry import registry

    BUILD = registry().paper("smith2027")   # .settings, .sources, .results, .logs, .data_path(name)

    rule compute_smith2027_agreement:
        output:
            values=f"{BUILD.results}/values/agreement_{{dataset}}.tsv",     # gathered into values.tsv
            variants=f"{BUILD.results}/variants/agreement_{{dataset}}.tsv", # read by the claims diff
            figure=report(f"{BUILD.results}/figures/kappa.png", ...),
        ...

    BUILD.add_outputs(rules.compute_smith2027_agreement, dataset=DATASETS)  # its values and variants
    BUILD.add_targets(rules.compute_smith2027_agreement.output.figure)     # built by `rule all`
    BUILD.require("rerun_model", packages={"torch": "torch"})   # when that setting is on: checked first

The generic check rule of a paper whose ``PAPER`` declares relations registers its own
outputs (``workflow/rules/printed.smk``), and every paper's claims.tsv is built by the
generic rules. Nothing passes between a paper's rules and the generic ones except through
this object.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Iterable, Mapping

from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.requirements import Requirement
from reagree.pipeline.settings import paper_folders
from reagree.pipeline.sources import expand_sources, expansion_values

__all__ = ["PaperBuild", "Registry", "load_enabled_papers", "open_registry", "paper_files", "registry"]

_WILDCARD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:,[^{}]*)?\}")


def load_enabled_papers(paper_ids: list[str], workflow_dir: str | Path) -> dict[str, dict]:
    workflow_dir = Path(workflow_dir)
    known = paper_folders(workflow_dir)
    unknown = [p for p in paper_ids if p not in known]
    if unknown:
        raise ValueError(f"config key 'papers': unknown paper id(s) {unknown}; known papers: {known}")
    papers = {}
    for paper_id in paper_ids:
        folder = workflow_dir / "papers" / paper_id
        if not (folder / "rules.smk").is_file():
            raise ValueError(f"{folder}: a paper folder needs a rules.smk")
        papers[paper_id] = load_paper(folder / "paper.yaml")
    return papers


def paper_files(papers: dict[str, dict], config: dict) -> dict[str, list[dict]]:
    """Expanded sources of every enabled paper under its settings in ``config``."""
    return {paper_id: expand_sources(paper, config.get(paper_id) or {}) for paper_id, paper in papers.items()}


@dataclass
class PaperBuild:
    """One enabled paper in this run: its paper.yaml, its settings (defaults filled in),
    the sources it fetches under them, and what its rules.smk registers: the partial
    value files gathered into ``results/<id>/values.tsv`` (``values``), the variant files
    the claims diff reads (``variants``: ``reagree.pipeline.variantplan``) and the files
    ``rule all`` builds (``targets``; every fetched file and, when it fetches, its
    ``inputs.sha256``, from the start)."""

    id: str
    paper: dict
    settings: dict
    sources: list[dict]
    expansions: dict
    values: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    requirements: list[Requirement] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.targets = [self.data_path(source["name"]) for source in self.sources] + [
            f"{self.results}/inputs.sha256"
        ] * bool(self.sources)

    @property
    def results(self) -> str:
        return f"results/{self.id}"

    @property
    def logs(self) -> str:
        return f"logs/{self.id}"

    def data_path(self, name: str) -> str:
        """Where the source ``name`` lands (``data/<id>/<name>``)."""
        return f"data/{self.id}/{name}"

    def add_values(self, *paths: str) -> None:
        self.values += [p for p in dict.fromkeys(paths) if p not in self.values]

    def add_variants(self, *paths: str) -> None:
        self.variants += [p for p in dict.fromkeys(paths) if p not in self.variants]

    def add_targets(self, *paths: str) -> None:
        self.targets += [p for p in dict.fromkeys(map(str, paths)) if p not in self.targets]

    def add_outputs(self, rule: object, **wildcards: Iterable[str]) -> None:
        """Register the value and variant files ``rule`` writes (``rules.<name>`` after the
        rule: its outputs named ``values`` and ``variants``), each path expanded over the
        ``wildcards`` values given (``dataset=["english", ...]``); a wildcard of a path
        without values is an error naming the path."""
        for name, add in (("values", self.add_values), ("variants", self.add_variants)):
            path = getattr(rule.output, name, None)
            if path is not None:
                add(*_expand(str(path), wildcards))

    def require(
        self,
        setting: str | None,
        packages: dict[str, str] | None = None,
        model: str | None = None,
        model_setting: str | None = None,
        extra: str | None = None,
        part: str | None = None,
    ) -> None:
        """What the part that ``setting`` switches on needs beyond the lock: importable
        ``packages`` (``{import name: pip name}``, from reagree's optional ``extra`` when
        one holds them) and the weights of ``model``, named by ``model_setting``. Recorded
        only when the setting is on in this run (always, for a ``part`` that no setting
        switches: ``setting`` None), and checked before any job runs
        (``reagree.pipeline.requirements``)."""
        if setting is None or self.settings.get(setting):
            self.requirements.append(
                Requirement(self.id, setting, dict(packages or {}), model, model_setting, extra, part)
            )


def _expand(path: str, wildcards: Mapping[str, Iterable[str]]) -> list[str]:
    """``path`` with each ``{wildcard}`` filled by each of its values (every combination).
    Written here because ``snakemake.io.expand`` refuses a wildcard with a constraint
    (``{dataset,[a-z]+}``) and names no path when a value is missing."""
    names = list(dict.fromkeys(_WILDCARD.findall(path)))
    missing = [name for name in names if name not in wildcards]
    if missing:
        raise ValueError(f"{path}: the values of wildcard(s) {missing} are needed to register it")
    pattern = _WILDCARD.sub(lambda match: "{" + match.group(1) + "}", path)
    return [pattern.format(**dict(zip(names, values))) for values in product(*(list(wildcards[n]) for n in names))]


class Registry:
    """The enabled papers of one run, in ``config["papers"]`` order."""

    def __init__(self, builds: dict[str, PaperBuild]):
        self._builds = builds

    def paper(self, paper_id: str) -> PaperBuild:
        if paper_id not in self._builds:
            raise KeyError(f"paper {paper_id!r} is not enabled in this run (config key papers: {list(self._builds)})")
        return self._builds[paper_id]

    @property
    def ids(self) -> list[str]:
        return list(self._builds)

    def targets(self) -> list[str]:
        """Every enabled paper's targets, paper by paper."""
        return [target for build in self._builds.values() for target in build.targets]

    def requirements(self) -> list[Requirement]:
        """What every enabled paper's optional parts need (``PaperBuild.require``)."""
        return [requirement for build in self._builds.values() for requirement in build.requirements]


_current: Registry | None = None


def open_registry(papers: dict[str, dict], config: dict) -> Registry:
    """The registry of this run's papers (``load_enabled_papers``), their settings in
    ``config``; from now on ``registry()`` returns it."""
    global _current
    _current = Registry(
        {
            paper_id: PaperBuild(
                paper_id,
                paper,
                config.get(paper_id) or {},
                expand_sources(paper, config.get(paper_id) or {}),
                expansion_values(paper, config.get(paper_id) or {}),
            )
            for paper_id, paper in papers.items()
        }
    )
    return _current


def registry() -> Registry:
    """The registry common.smk opened for this run (a paper's rules.smk imports it)."""
    if _current is None:
        raise RuntimeError(
            "no paper registry is open: workflow/rules/common.smk opens it before the papers' rules.smk are included"
        )
    return _current
