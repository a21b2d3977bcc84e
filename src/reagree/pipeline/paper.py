"""The one contract between the library and a paper: the ``PAPER`` object a paper package declares.

What this module decides:

- **One declared object.** A paper's package (``workflow/papers/<id>/<id>/``) exports one
  ``PAPER = Paper(...)`` in its ``__init__.py``. The pipeline, the claims diff, the
  explainer and the tests read that object (``paper_code``) and nothing else of the
  package by name: no module is imported because of what it is called.
- **Every part is optional, with one default.** ``keys`` (a ``reagree.pipeline.keys``
  grammar: the paper's value keys and the function behind each family) is the one part
  every paper has; ``variants`` (a ``reagree.pipeline.variantplan.VariantPlan``) defaults
  to none, ``relations`` (``reagree.pipeline.internal`` relations over printed numbers)
  to an empty list. A paper with relations gets the generated check rule
  (``check_rule``: ``workflow/rules/printed.smk``, the same rule for every paper, writing
  ``results/<id>/values/printed.tsv`` and ``variants/printed.tsv``); a paper without gets
  none. Figures are drawn by the paper's own rules (their functions live in the
  package's ``plots`` module, called by one rule script each); their captions are the
  ``report/*.rst`` files of the paper folder.
- **Checked when read.** A package without ``PAPER``, or a part of the wrong type, is an
  error naming the package's file and the part, before any rule runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from reagree.pipeline.papercode import import_code

if TYPE_CHECKING:  # the parts' types, imported for annotations only (no import cycle at run time)
    from reagree.pipeline.internal import Relation
    from reagree.pipeline.keys import KeyGrammar
    from reagree.pipeline.variantplan import VariantPlan

__all__ = ["Paper", "check_rule", "paper_code"]


@dataclass(frozen=True)
class Paper:
    """What a paper package gives the pipeline: its keys, and optionally its variants and relations.

    Parameters
    ----------
    keys
        The paper's value keys, declared once (``reagree.pipeline.keys.KeyGrammar``).
    variants
        The variants its claims are held against (``reagree.pipeline.variantplan.VariantPlan``),
        or None when the paper declares none.
    relations
        Its printed numbers held against other printed numbers
        (``reagree.pipeline.internal.relate``); empty when it has no internal claims.
    """

    keys: KeyGrammar
    variants: VariantPlan | None = None
    relations: Sequence[Relation] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        from reagree.pipeline.internal import Relation
        from reagree.pipeline.keys import KeyGrammar
        from reagree.pipeline.variantplan import VariantPlan

        if not isinstance(self.keys, KeyGrammar):
            raise TypeError(f"Paper(keys=...) takes a reagree.pipeline.keys.KeyGrammar, not {type(self.keys).__name__}")
        if self.variants is not None and not isinstance(self.variants, VariantPlan):
            raise TypeError(
                "Paper(variants=...) takes a reagree.pipeline.variantplan.VariantPlan or None, "
                f"not {type(self.variants).__name__}"
            )
        relations = tuple(self.relations)
        wrong = [type(r).__name__ for r in relations if not isinstance(r, Relation)]
        if wrong:
            raise TypeError(f"Paper(relations=...) takes reagree.pipeline.internal relations, not {', '.join(wrong)}")
        object.__setattr__(self, "relations", relations)


def paper_code(paper_id: str) -> Paper:
    """The ``PAPER`` a paper's package declares (``workflow/papers/<id>/<id>/__init__.py``).

    The paper folder is on ``sys.path`` in the workflow and the tests. ValueError names
    the file when the package is missing or declares no ``Paper``.
    """
    try:
        module = import_code(paper_id)
    except ModuleNotFoundError as error:
        if error.name != paper_id:
            raise
        raise ValueError(
            f"{paper_id}: no paper package (workflow/papers/{paper_id}/{paper_id}/__init__.py "
            "declaring PAPER = reagree.pipeline.paper.Paper(keys=...))"
        ) from None
    paper = getattr(module, "PAPER", None)
    if not isinstance(paper, Paper):
        raise ValueError(f"{module.__file__}: declares no PAPER (a reagree.pipeline.paper.Paper)")
    return paper


def check_rule(paper_id: str) -> str:
    """The name of the generated rule that checks a paper's printed numbers against one
    another (its ``PAPER.relations``; ``workflow/rules/printed.smk``)."""
    return f"check_{paper_id}_printed"
