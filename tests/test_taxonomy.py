from pathlib import Path

from conftest import BROKEN, REPO

from curator.taxonomy import fold, load_taxonomy

TAXONOMY = load_taxonomy(REPO / "schema" / "taxonomy")


def test_did_you_mean_uses_ids_labels_and_aliases():
    assert TAXONOMY.did_you_mean("components", "ncl") == ["nccl"]
    assert TAXONOMY.did_you_mean("components", "NCCL") == ["nccl"]
    assert TAXONOMY.did_you_mean("symptoms", "처리량 저하") == ["throughput-degradation"]
    assert TAXONOMY.did_you_mean("components", "zzzzzz") == []


def test_hierarchy():
    assert "cni" in TAXONOMY.ancestors("components", "cilium")
    assert "shared-network-filesystem" in TAXONOMY.ancestors("components", "weka")
    # A term carries its ancestors: the search's filters and coverage ask for this.
    lineage = TAXONOMY.lineage("components", "ufm")
    assert lineage == {"ufm", *TAXONOMY.ancestors("components", "ufm")}
    assert {"infiniband", "rdma-network"} <= lineage
    assert TAXONOMY.lineage("components", "no-such-term") == {"no-such-term"}


def test_fold_ignores_case_width_and_separators():
    assert fold("Shared-Network FileSystem") == fold("shared network filesystem")
    assert fold("ＮＣＣＬ") == "nccl"


def test_broken_taxonomy_problems_are_located():
    taxonomy = load_taxonomy(BROKEN / "schema" / "taxonomy")
    [problem] = taxonomy.problems
    assert problem.path == BROKEN / "schema" / "taxonomy" / "components.yaml"
    assert problem.position.line == 33
    assert "parent 'parallel-filesystem'" in problem.message


def test_duplicate_term_ids_and_bad_links(tmp_path: Path):
    folder = tmp_path / "taxonomy"
    folder.mkdir()
    term = "  - id: {id}\n    label: {{ko: 가, en: A}}\n    description: 설명.\n"
    (folder / "causes.yaml").write_text(
        "dimension: causes\nterms:\n" + term.format(id="a") + "    parent: b\n", encoding="utf-8"
    )
    (folder / "components.yaml").write_text(
        "dimension: components\nterms:\n"
        + term.format(id="a")
        + "    deprecated: {replaced_by: zz, reason: 이유}\n",
        encoding="utf-8",
    )
    (folder / "symptoms.yaml").write_text("dimension: causes\nterms: []\n", encoding="utf-8")
    taxonomy = load_taxonomy(folder)
    messages = [p.message for p in taxonomy.problems]
    assert any("parent 'b' is not a term of causes" in m for m in messages)
    assert any("'a' is already used in causes" in m for m in messages)
    assert any("dimension is 'causes' but the file is symptoms.yaml" in m for m in messages)
    assert any("cannot read" in m for m in messages)  # contributing_factors.yaml is missing
