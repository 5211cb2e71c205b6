import json
import unicodedata
from pathlib import Path

from conftest import BROKEN, REPO, run_curator, write_library

from curator.similarity.phrases import Matcher
from curator.taxonomy import fold, load_taxonomy
from incidents import incident

TAXONOMY = load_taxonomy(REPO / "schema" / "taxonomy")


def test_did_you_mean_uses_ids_labels_and_aliases():
    assert TAXONOMY.did_you_mean("components", "ncl") == ["nccl"]
    assert TAXONOMY.did_you_mean("components", "NCCL") == ["nccl"]
    assert TAXONOMY.did_you_mean("symptoms", "처리량 저하") == ["throughput-degradation"]
    assert TAXONOMY.did_you_mean("components", "zzzzzz") == []


def test_did_you_mean_offers_the_term_a_name_is_the_id_or_label_of_before_an_alias(
    tmp_path: Path,
):
    # An alias written before another term was added is that term's id or label: the
    # facet meant the term itself. (Bundled once: local-nvme's aliases `local disk`, `로컬 디스크`.)
    folder = tmp_path / "taxonomy"
    folder.mkdir()
    (folder / "components.yaml").write_text(
        "dimension: components\n"
        "terms:\n"
        "  - id: nvme\n"
        "    label: {ko: NVMe, en: NVMe}\n"
        "    description: 설명.\n"
        "    aliases: [로컬 디스크, local disk, 디스크]\n"
        "  - id: local-disk\n"
        "    label: {ko: 로컬 디스크, en: Local disk}\n"
        "    description: 설명.\n"
        "    aliases: [디스크]\n",
        encoding="utf-8",
    )
    taxonomy = load_taxonomy(folder)
    for written in ("local_disk", "Local Disk", "로컬 디스크", "로컬디스크"):
        assert taxonomy.did_you_mean("components", written) == ["local-disk"], written
    assert taxonomy.did_you_mean("components", "디스크") == ["nvme"]  # two aliases: the first
    assert TAXONOMY.did_you_mean("components", "local_disk") == ["local-disk"]
    assert TAXONOMY.did_you_mean("components", "로컬 디스크") == ["local-disk"]


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
    assert any("'a' is also a term of causes (causes.yaml:3:9)" in m for m in messages)
    assert any("'a' is also a term of components (components.yaml:3:9)" in m for m in messages)
    assert any("dimension is 'causes' but the file is symptoms.yaml" in m for m in messages)
    assert any("cannot read" in m for m in messages)  # contributing_factors.yaml is missing


def test_a_yaml_file_that_is_no_dimension_is_named_as_unread(tmp_path: Path):
    folder = tmp_path / "taxonomy"
    folder.mkdir()
    for source in (REPO / "schema" / "taxonomy").glob("*.yaml"):
        (folder / source.name).write_bytes(source.read_bytes())
    extra = {
        "contributing-factors.yaml": "contributing_factors.yaml",  # misnamed: a dash
        "causes.yml": "causes.yaml",  # (read beside causes.yaml by nobody)
        "platforms.YAML": None,  # a dimension proposed
    }
    for name in extra:
        (folder / name).write_text("dimension: causes\nterms: []\n", encoding="utf-8")
    for name in ("README.md", ".draft.yaml"):  # no YAML, or hidden: not the taxonomy's
        (folder / name).write_text("x: y\n", encoding="utf-8")
    taxonomy = load_taxonomy(folder)
    files = "causes.yaml, components.yaml, symptoms.yaml, contributing_factors.yaml"
    found = {p.path.name: (p.position, p.message) for p in taxonomy.problems}
    assert found == {
        name: (
            (1, 1),
            f"{name} is not read: the taxonomy's files are {files}"
            + (f"; did you mean {meant}?" if meant else "")
            + " (a new dimension is a change to curator itself)",
        )
        for name, meant in extra.items()
    }
    assert {name: taxonomy.sources[name] for name in extra} == dict.fromkeys(extra, "not read")


def test_lint_reports_an_unread_taxonomy_file_as_soon_as_it_appears_cache_or_not(tmp_path: Path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    assert run_curator("lint", "-q", cwd=root).code == 0  # the cache written
    (root / "schema" / "taxonomy" / "symptom.yml").write_text("terms: []\n", encoding="utf-8")
    run = run_curator("lint", cwd=root)
    assert run.code == 1, run
    assert run.out.startswith(
        "schema/taxonomy/symptom.yml:1:1: IL303 [error] symptom.yml is not read: "
    ), run.out
    assert "; did you mean symptoms.yaml? " in run.out
    (root / "schema" / "taxonomy" / "symptom.yml").unlink()
    assert run_curator("lint", "-q", cwd=root).code == 0


def test_an_id_used_again_is_reported_where_both_are_and_incidents_keep_their_term(
    tmp_path: Path,
):
    # A term added to causes with the id of a component: either may be the new one, so
    # both are named, and the incidents carrying the component are not told it is gone
    # (nor its children that their parent is).
    root = write_library(
        tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", ("    - nccl\n", "    - gpu\n"))}
    )
    causes = root / "schema" / "taxonomy" / "causes.yaml"
    text = causes.read_text(encoding="utf-8")
    repeat = "  - id: {id}\n    label: {{ko: 가, en: A}}\n    description: 설명.\n"
    causes.write_text(
        text + repeat.format(id="gpu") + repeat.format(id="capacity-limit"), encoding="utf-8"
    )
    gpu_line = text.count("\n") + 1
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 1, run
    again = "a term id names one term in every dimension; give one of the two another id"
    assert run.out.splitlines() == [
        f"schema/taxonomy/causes.yaml:{gpu_line}:9: IL303 [error] term id 'gpu' is also a "
        f"term of components (components.yaml:3:9): {again}",
        f"schema/taxonomy/causes.yaml:{gpu_line + 3}:9: IL303 [error] term id "
        "'capacity-limit' is already used in causes, at line 3",
        "schema/taxonomy/components.yaml:3:9: IL303 [error] term id 'gpu' is also a term of "
        f"causes (causes.yaml:{gpu_line}:9): {again}",
    ]


def test_a_missing_dimension_file_is_shown_by_its_place_in_the_library(tmp_path: Path):
    # It was shown by its absolute path, as no other finding is (and so in the review).
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    (root / "schema" / "taxonomy" / "symptoms.yaml").unlink()
    for cwd, shown in ((root, "schema"), (root / "incidents", "../schema")):
        run = run_curator("lint", "--no-cache", cwd=cwd)
        assert run.code == 1, run
        assert f"{shown}/taxonomy/symptoms.yaml:1:1: IL303 [error] cannot read: " in run.out, run


def test_a_parent_or_replacement_that_is_no_term_is_offered_the_term_meant(tmp_path: Path):
    # Only "is not a term of components" was said: not the term a typo meant, nor that
    # the term named is of another dimension.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    components = root / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    added = (
        "  - id: new-store\n"
        "    label: {ko: 새 저장소, en: New store}\n"
        "    description: 설명.\n"
        "    parent: shared-network-filesytem\n"
        "  - id: old-store\n"
        "    label: {ko: 옛 저장소, en: Old store}\n"
        "    description: 설명.\n"
        "    parent: capacity-limit\n"
        "    deprecated: {replaced_by: sharednetwork-filesystem, reason: 이유.}\n"
    )
    components.write_text(text + added, encoding="utf-8")
    line = text.count("\n") + 1
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 1, run
    where = "schema/taxonomy/components.yaml"
    assert run.out.splitlines() == [
        f"{where}:{line}:9: IL303 [error] term 'new-store': parent 'shared-network-filesytem' "
        "is not a term of components; did you mean 'shared-network-filesystem'?",
        f"{where}:{line + 4}:9: IL303 [error] term 'old-store': parent 'capacity-limit' is not "
        "a term of components (it is a term of causes)",
        f"{where}:{line + 4}:9: IL303 [error] term 'old-store': replaced_by "
        "'sharednetwork-filesystem' is not a term of components; did you mean "
        "'shared-network-filesystem'?",
    ]


def _line_of(text: str, line: str, start: int = 0) -> int:
    """The number of the first line of `text` that is `line`, from line `start` on."""
    return text.splitlines().index(line, start) + 1


def test_one_broken_term_costs_its_own_finding_and_keeps_the_others(tmp_path: Path):
    # One term with a misspelt key, or aliases that are no list, dropped every term of
    # causes: each incident was told its cause is no term, where only one was broken.
    carried = {
        "IL-0001.yaml": incident("IL-0001"),  # capacity-limit, the term broken below
        "IL-0002.yaml": incident("IL-0002", ("- capacity-limit", "- config-change")),
    }
    root = write_library(tmp_path / "lib", carried)
    causes = root / "schema" / "taxonomy" / "causes.yaml"
    text = causes.read_text(encoding="utf-8")
    term = _line_of(text, "  - id: capacity-limit")
    children = ("resource-exhaustion", "traffic-overload")  # the terms whose parent it is
    lines = text.splitlines(keepends=True)
    aliases = _line_of(text, "    aliases:", term)
    aliases_end = _line_of(text, "  - id: resource-exhaustion") - 1  # (the term after it)
    misspelt = text.replace("    description: 요청이나", "    descripton: 요청이나", 1)
    not_a_list = "".join([*lines[: aliases - 1], "    aliases: 병목\n", *lines[aliases_end:]])
    broken = "'capacity-limit' is a term of causes whose definition is broken, at "
    where = f"schema/taxonomy/causes.yaml:{term}:9 (its IL303 errors say how)"
    for written, problem in (
        (
            misspelt,
            f"{term + 4}:5: IL303 [error] unknown key 'terms[0].descripton'; did you mean "
            "'terms[0].description'? ('terms[0].description' is required and missing)",
        ),
        (
            not_a_list,
            f"{aliases}:14: IL303 [error] terms[0].aliases: expected a list, found text "
            "'병목'; write each item on a line of its own below the key, indented, as "
            "`- item`",
        ),
    ):
        causes.write_text(written, encoding="utf-8")
        run = run_curator("lint", "--no-cache", cwd=root)
        assert run.code == 1, run
        assert run.out.splitlines() == [
            f"incidents/IL-0001.yaml:9:7: IL301 [error] {broken}{where}",
            f"schema/taxonomy/causes.yaml:{problem}",
            *(
                f"schema/taxonomy/causes.yaml:{_line_of(written, f'  - id: {child}')}:9: IL303 "
                f"[error] term '{child}': parent {broken}{where}"
                for child in children
            ),
        ]
        # Nothing may take another term for it: fix leaves the file as it is.
        before = (root / "incidents" / "IL-0001.yaml").read_bytes()
        run_curator("fix", "--no-cache", cwd=root)
        assert (root / "incidents" / "IL-0001.yaml").read_bytes() == before


def test_a_taxonomy_file_whose_terms_are_no_list_is_one_finding(tmp_path: Path):
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    causes = root / "schema" / "taxonomy" / "causes.yaml"
    causes.write_text("dimension: causes\nterms: capacity-limit\n", encoding="utf-8")
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 1, run
    assert run.out.splitlines() == [
        "schema/taxonomy/causes.yaml:2:8: IL303 [error] terms: expected a list, found text "
        "'capacity-limit'; write each item on a line of its own below the key, indented, as "
        "`- item`; none of its terms is known, so the causes of incidents are not checked "
        "(IL301) until it is fixed: 1 incident carries 1 term of it",
    ]


def test_a_taxonomy_file_broken_whole_is_one_error_not_one_a_term_carried(tmp_path: Path):
    # A bad indent in components.yaml gave its IL303 and an IL301 for every component of
    # every incident (245 on the bundled library), each term unknown only because none was
    # read. The other dimensions are still checked: a cause that is no term is reported.
    carried = {
        "IL-0001.yaml": incident("IL-0001", ("- nccl", "- infiniband\n    - nccl")),
        "IL-0002.yaml": incident("IL-0002"),
        "IL-0003.yaml": incident("IL-0003", ("- capacity-limit", "- capacity-limt")),
    }
    root = write_library(tmp_path / "lib", carried)
    components = root / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    components.write_text(text.replace("    label:", "     label:", 1), encoding="utf-8")
    error = (
        "YAML syntax error: mapping values are not allowed in this context: this key is "
        "indented deeper than the key above it: line it up with the keys of its mapping; or, "
        "if it goes on with the text above, write that text as a `|` block; none of its terms "
        "is known, so the components of incidents are not checked (IL301) until it is fixed: "
        "3 incidents carry 4 terms of it"
    )
    cause = "'capacity-limt' is not a term of causes; did you mean 'capacity-limit'?"
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 1, run
    assert run.out.splitlines() == [
        f"incidents/IL-0003.yaml:9:7: IL301 [error] {cause}",
        f"schema/taxonomy/components.yaml:4:11: IL303 [error] {error}",
    ]
    assert run.err.startswith("2 errors, 0 warnings in 3 files checked"), run
    run = run_curator("lint", "--no-cache", "--format", "json", cwd=root)
    assert run.code == 1, run
    assert [(f["path"], f["code"], f["message"]) for f in json.loads(run.out)] == [
        ("incidents/IL-0003.yaml", "IL301", cause),
        ("schema/taxonomy/components.yaml", "IL303", error),
    ]
    run = run_curator("lint", "--no-cache", "--format", "github", cwd=root)
    assert run.code == 1, run
    assert [line.split("::")[1] for line in run.out.splitlines()] == [
        "error file=incidents/IL-0003.yaml,line=9,col=7,title=IL301",
        "error file=schema/taxonomy/components.yaml,line=4,col=11,title=IL303",
    ]


def test_an_alias_two_terms_share_or_another_terms_name_is_a_warning_at_it(tmp_path: Path):
    # Nothing said so: an alias two terms share names neither for fix, new and search, and
    # one that is another term's label is that term's; text saying either counts for both.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    components = root / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    nfd_label = unicodedata.normalize("NFD", "로컬 디스크")
    added = (
        "  - id: new-store\n"
        "    label: {ko: 새 저장소, en: New store}\n"
        "    description: 설명.\n"
        "    aliases:\n"
        "      - NewStore\n"  # its own label written together: no clash, another spelling
        "      - PG Dump\n"  # backup-system's pg_dump, folded
        f"      - {nfd_label}\n"  # local-disk's Korean label, decomposed
        "      - ＮＣＣＬ\n"  # nccl's id, full width
    )
    components.write_text(text + added, encoding="utf-8")
    line = text.count("\n") + 1
    pg_dump = _line_of(text, "      - pg_dump", _line_of(text, "  - id: backup-system"))
    label = _line_of(text, "      ko: 로컬 디스크", _line_of(text, "  - id: local-disk"))
    nccl = _line_of(text, "  - id: nccl")
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 0, run  # warnings
    at = "schema/taxonomy/components.yaml"
    assert run.out.splitlines() == [
        f"{at}:{pg_dump}:9: IL305 [warning] term 'backup-system': alias 'pg_dump' is an alias "
        f"of term 'new-store' too (components.yaml:{line + 5}:9): `curator fix`, `new` and "
        "`search` take the name for neither; keep it in the term it means",
        f"{at}:{line + 5}:9: IL305 [warning] term 'new-store': alias 'PG Dump' is an alias of "
        f"term 'backup-system' too (components.yaml:{pg_dump}:9): `curator fix`, `new` and "
        "`search` take the name for neither; keep it in the term it means",
        f"{at}:{line + 6}:9: IL305 [warning] term 'new-store': alias {nfd_label!r} is the "
        f"Korean label of term 'local-disk' (components.yaml:{label}:11): the name means "
        "that term, and text saying it counts for both; remove the alias",
        f"{at}:{line + 7}:9: IL305 [warning] term 'new-store': alias 'ＮＣＣＬ' is the id of "
        f"term 'nccl' (components.yaml:{nccl}:9): the name means that term, and text saying "
        "it counts for both; remove the alias",
    ]
    # Not a broken taxonomy: fix does not say so.
    assert "broken" not in run_curator("fix", "--no-cache", cwd=root).err


def test_an_alias_its_own_term_has_already_is_a_warning_at_it(tmp_path: Path):
    # Nothing said so: `NCCL` beside `nccl`, or a term's own label again as an alias, is
    # one name to fix, new, search and suggest, only more to read (224 in the bundled
    # taxonomy). Written apart or together otherwise, it is another spelling, kept.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    components = root / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    nfd_label = unicodedata.normalize("NFD", "새 저장소")
    added = (
        "  - id: new-store\n"
        "    label: {ko: 새 저장소, en: New store}\n"
        "    description: 설명.\n"
        "    aliases:\n"
        "      - new store\n"  # its id, apart
        f"      - {nfd_label}\n"  # its Korean label, decomposed
        "      - Vault\n"
        "      - ｖａｕｌｔ\n"  # the alias before it, full width
        "      - NewStore\n"  # written together: another spelling
        "      - VAULT\n"  # Vault again, as written nowhere before it
    )
    components.write_text(text + added, encoding="utf-8")
    line = text.count("\n") + 1
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 0, run  # warnings
    said = "which adds no name (case, width and a space for a hyphen aside): remove the alias"
    at = "schema/taxonomy/components.yaml"
    assert run.out.splitlines() == [
        f"{at}:{line + 4}:9: IL305 [warning] term 'new-store': alias 'new store' is its id "
        f"'new-store' again (components.yaml:{line}:9), {said}",
        f"{at}:{line + 5}:9: IL305 [warning] term 'new-store': alias {nfd_label!r} is its "
        f"Korean label '새 저장소' again (components.yaml:{line + 1}:17), {said}",
        f"{at}:{line + 7}:9: IL305 [warning] term 'new-store': alias 'ｖａｕｌｔ' is its alias "
        f"'Vault' again (components.yaml:{line + 6}:9), {said}",
        f"{at}:{line + 9}:9: IL305 [warning] term 'new-store': alias 'VAULT' is its alias "
        f"'Vault' again (components.yaml:{line + 6}:9), {said}",
    ]


def test_a_label_another_term_has_or_is_the_id_of_is_reported_at_it(tmp_path: Path):
    # Nothing said so: two terms of one label are shown as one wherever terms are, and
    # `new`, `fix` and `search` took the name for neither (or, another's id, for that one).
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    components = root / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    nfd_label = unicodedata.normalize("NFD", "로컬 디스크")
    term = "  - id: {id}\n    label:\n      ko: {ko}\n      en: {en}\n    description: 설명.\n"
    added = (
        term.format(id="new-disk", ko=nfd_label, en="Capacity Limit")  # local-disk's; a cause's
        + term.format(id="new-config", ko="새 설정", en="Config Management")  # another's id
        + term.format(id="old-disk", ko="옛 디스크", en="Local disk")  # deprecated: a warning
        + "    deprecated: {replaced_by: local-disk, reason: 합쳤다.}\n"
    )
    components.write_text(text + added, encoding="utf-8")
    line = text.count("\n") + 1
    local_disk = _line_of(text, "  - id: local-disk")
    config = _line_of(text, "  - id: config-management")
    causes = (root / "schema" / "taxonomy" / "causes.yaml").read_text(encoding="utf-8")
    capacity = _line_of(causes, "  - id: capacity-limit")
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 1, run
    neither = (
        "the two are shown as one, and `curator new`, `fix` and `search` take it for neither; "
        "give one of them another label"
    )
    two = "an incident's terms are shown as two of one name; give one of them another label"
    at = "schema/taxonomy"
    assert run.out.splitlines() == [
        f"{at}/causes.yaml:{capacity + 3}:11: IL305 [warning] term 'capacity-limit': English "
        "label 'Capacity limit' is the English label of term 'new-disk' of components too "
        f"(components.yaml:{line + 3}:11): {two}",
        f"{at}/components.yaml:{local_disk + 2}:11: IL303 [error] term 'local-disk': Korean "
        f"label '로컬 디스크' is the Korean label of term 'new-disk' too (components.yaml:"
        f"{line + 2}:11): {neither}",
        f"{at}/components.yaml:{local_disk + 3}:11: IL305 [warning] term 'local-disk': "
        "English label 'Local disk' is the English label of term 'old-disk' too "
        f"(components.yaml:{line + 13}:11): the two are shown as one; give one of them "
        "another label",  # (its own id: `named_term` takes the name for it)
        f"{at}/components.yaml:{line + 2}:11: IL303 [error] term 'new-disk': Korean label "
        f"{nfd_label!r} is the Korean label of term 'local-disk' too (components.yaml:"
        f"{local_disk + 2}:11): {neither}",
        f"{at}/components.yaml:{line + 3}:11: IL305 [warning] term 'new-disk': English label "
        "'Capacity Limit' is the English label of term 'capacity-limit' of causes too "
        f"(causes.yaml:{capacity + 3}:11): {two}",
        f"{at}/components.yaml:{line + 8}:11: IL303 [error] term 'new-config': English label "
        f"'Config Management' is the id of term 'config-management' (components.yaml:{config}"
        ":9): `curator new`, `fix` and `search` take the name for that term; give it another "
        "label",
        f"{at}/components.yaml:{line + 13}:11: IL305 [warning] term 'old-disk': English label "
        f"'Local disk' is the id of term 'local-disk' (components.yaml:{local_disk}:9): "
        "`curator new`, `fix` and `search` take the name for that term; give it another label",
    ]


def test_kubernetes_itself_is_a_term_over_its_parts():
    # Kubernetes, k8s and 쿠버네티스 named no term (`curator new --component k8s` was
    # refused), and no filter found the incidents of the control plane, kubelet and
    # kube-proxy together. An alias on the control plane would have told incidents that
    # say only that their nodes run Kubernetes (IL-0198's) that the control plane was in it.
    for name in ("Kubernetes", "k8s", "K8S", "쿠버네티스"):
        assert TAXONOMY.named_term("components", name) == "kubernetes"
    for part in ("kubernetes-control-plane", "kube-apiserver", "etcd", "kubelet", "kube-proxy"):
        assert "kubernetes" in TAXONOMY.lineage("components", part)
    said = "서로 다른 클라우드에 있는 Kubernetes 노드 수만 대가 한꺼번에 네트워크 연결을 잃었다"
    components = [hit for hit in Matcher(TAXONOMY).find(said) if hit.dimension == "components"]
    assert [(hit.term, hit.alias) for hit in components] == [("kubernetes", "Kubernetes")]


def test_a_current_term_under_a_deprecated_parent_is_told_to_move_or_go_too(tmp_path: Path):
    # Left under a retired term, a child was no child of the replacement: a search on
    # either missed the incidents carrying it, and nothing said so.
    root = write_library(
        tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001", ("- nccl", "- new-child"))}
    )
    components = root / "schema" / "taxonomy" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    term = "  - id: {id}\n    label: {{ko: {id}, en: {id}}}\n    description: 설명.\n"
    added = (
        term.format(id="old-store")
        + "    deprecated: {replaced_by: shared-network-filesystem, reason: 합쳤다.}\n"
        + term.format(id="new-child")
        + "    parent: old-store\n"
        + term.format(id="old-child")  # deprecated too: nothing to say
        + "    parent: old-store\n"
        + "    deprecated: {replaced_by: new-child, reason: 합쳤다.}\n"
    )
    components.write_text(text + added, encoding="utf-8")
    child = _line_of(text + added, "  - id: new-child")
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 0, run
    assert run.out.splitlines() == [
        f"schema/taxonomy/components.yaml:{child}:9: IL305 [warning] term 'new-child': its "
        "parent 'old-store' is deprecated, so a search for either misses the incidents "
        "carrying it; set parent: shared-network-filesystem (its replacement), or deprecate "
        "it too",
    ]


def test_a_deleted_aliases_line_is_an_error_at_the_first_item_the_text_took(tmp_path: Path):
    # Without `aliases:`, YAML joined the `- ` lines below to the description: the term
    # lost its aliases and the description held them, and lint said nothing (incidents
    # get IL109 for the shape).
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    symptoms = root / "schema" / "taxonomy" / "symptoms.yaml"
    text = symptoms.read_text(encoding="utf-8")
    term = _line_of(text, "  - id: throughput-degradation")
    aliases = _line_of(text, "    aliases:", term)
    items = _line_of(text, "  - id: training-stall") - aliases - 1
    symptoms.write_text(text.replace("    aliases:\n", "", 1), encoding="utf-8")
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 1, run
    assert run.out.splitlines() == [
        f"schema/taxonomy/symptoms.yaml:{aliases}:7: IL303 [error] term "
        f"'throughput-degradation': this line and {items - 1} more below are no list items: "
        "YAML joins them to the text above, so terms[0].description ends in “…- 처리량 - "
        "처리량 급락 - 처리량 감소 - throughput drop - throughput drop…”; if they are the "
        "term's aliases, write `aliases:` above, at the indent of `description:`; if the "
        "marks belong to the text, quote the whole value",
    ]


def test_what_a_taxonomy_file_holds_unseen_is_reported_where_it_is(tmp_path: Path):
    # A second byte-order mark (ruamel.yaml reads it into the first key), a zero-width
    # space inside an alias (`suggest` no longer finds the name in text) and white space
    # ending lines got no finding, where an incident file gets IL604, IL606 and IL602.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    symptoms = root / "schema" / "taxonomy" / "symptoms.yaml"
    text = symptoms.read_text(encoding="utf-8")
    alias = _line_of(text, "      - 처리량 급락")
    label = _line_of(text, "      ko: 처리량 저하")
    lines = text.split("\n")
    lines[alias - 1] = "      - 처리\u200b량 급락"
    lines[label - 1] += " "
    lines[label] += "\t"
    symptoms.write_text("\ufeff\ufeff" + "\n".join(lines), encoding="utf-8")
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 1, run
    at = "schema/taxonomy/symptoms.yaml"
    assert run.out.splitlines() == [
        f"{at}:1:1: IL303 [error] 2 byte-order marks start the file: curator reads past "
        "them, but another YAML reader (ruamel.yaml) takes all but the first for part of the "
        "first key; remove them (UTF-8 needs none)",
        f"{at}:{label}:17: IL305 [warning] trailing white space (2 lines end in it); remove it",
        f"{at}:{alias}:11: IL303 [error] U+200B ZERO WIDTH SPACE, which shows as nothing and "
        "splits the word it is in: `suggest`, `search` and `new` do not find a name holding "
        "it in text; remove it",
    ]


def test_a_taxonomy_file_whose_every_term_is_broken_is_not_an_error_a_term_carried(
    tmp_path: Path,
):
    # Every term of symptoms with a misspelt key: each was reported where it is, and each
    # symptom of each incident was an IL301 error too (203 on the bundled library), where
    # a file that cannot be read is said once.
    carried = {
        "IL-0001.yaml": incident("IL-0001"),
        "IL-0002.yaml": incident(
            "IL-0002", ("- throughput-degradation", "- no-such-symptom\n    - training-stall")
        ),
    }
    root = write_library(tmp_path / "lib", carried)
    symptoms = root / "schema" / "taxonomy" / "symptoms.yaml"
    text = symptoms.read_text(encoding="utf-8")
    misspelt = text.replace("    description:", "    descripton:")
    symptoms.write_text(misspelt, encoding="utf-8")
    terms = text.count("  - id: ")
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 1, run
    # The same mistake in every term is one error, where it was one a term (28 in all).
    first = _line_of(text, "  - id: throughput-degradation") + 4  # (its description)
    last = len(misspelt[: misspelt.rindex("    descripton:")].split("\n"))
    assert run.out.splitlines() == [
        f"schema/taxonomy/symptoms.yaml:{first}:5: IL303 [error] unknown key "
        "'terms[0].descripton'; did you mean 'terms[0].description'? ('terms[0].description' "
        f"is required and missing); the same in {terms - 1} more terms, the last at line "
        f"{last}; none of its terms is known, so the symptoms of incidents are not checked "
        "(IL301) until it is fixed: 2 incidents carry 3 terms of it"
    ]
    assert run.err.startswith("1 error, 0 warnings in 2 files checked"), run
    # Mistakes that differ are one a term still.
    symptoms.write_text(misspelt.replace("    descripton:", "    desc:", 1), encoding="utf-8")
    found = run_curator("lint", "--no-cache", cwd=root).out.splitlines()
    assert [line.split(" IL303 [error] ")[1].split(";")[0] for line in found] == [
        "missing required key 'terms[0].description'",
        "unknown key 'terms[0].desc'",
        "unknown key 'terms[1].descripton'",
    ]
    assert found[2].endswith(f"the same in {terms - 2} more terms, the last at line {last}")


def test_a_taxonomy_file_of_lone_cr_line_ends_is_reported_on_the_lines_its_editor_shows(
    tmp_path: Path,
):
    # An incident's findings are moved to the lines a classic Mac OS editor shows; a
    # taxonomy file's were not: all of it was line 1 (the U+200B at 1:104), and the white
    # space ending a line went unreported.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    symptoms = root / "schema" / "taxonomy" / "symptoms.yaml"
    text = symptoms.read_text(encoding="utf-8")
    text = text.replace("      en: Throughput degradation\n", "      en: Through\u200bput  \n", 1)
    text = text.replace("    aliases:", "    alias:", 1)
    symptoms.write_text(text, encoding="utf-8")
    at = "schema/taxonomy/symptoms.yaml"
    found = run_curator("lint", "--no-cache", cwd=root).out.splitlines()
    with_lf = [line for line in found if line.startswith(at)]  # (less the incident's IL301)
    label, key = _line_of(text, "      en: Through\u200bput  "), _line_of(text, "    alias:")
    assert [line.split(" [")[0] for line in with_lf] == [
        f"{at}:{label}:18: IL303",  # (the U+200B)
        f"{at}:{label}:22: IL305",  # (the two spaces)
        f"{at}:{key}:5: IL303",  # (alias:)
    ]
    symptoms.write_text(text.replace("\n", "\r"), encoding="utf-8", newline="")
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 1, run
    lines = text.count("\n")
    assert [line for line in run.out.splitlines() if line.startswith(at)] == [
        # (Not "nor for lint's line numbers": they are those its editor shows.)
        f"{at}:1:20: IL303 [error] {lines} lines end with a lone CR, which starts a line for "
        "YAML readers but not for git or GitHub; use LF",
        *with_lf,
    ]


def test_a_taxonomy_file_whose_lines_end_otherwise_than_with_lf_is_reported(tmp_path: Path):
    # An incident gets IL603; a taxonomy file got nothing. A lone CR, NEL or LINE SEPARATOR
    # joins two lines for one reader and not for another (the `aliases:` key after it is
    # read by curator and shown to a reviewer as part of the description): an error. CRLF
    # every YAML reader reads alike: a warning, as trailing white space is.
    root = write_library(tmp_path / "lib", {"IL-0001.yaml": incident("IL-0001")})
    symptoms = root / "schema" / "taxonomy" / "symptoms.yaml"
    text = symptoms.read_text(encoding="utf-8")
    aliases = _line_of(text, "    aliases:")
    column = len(text.split("\n")[aliases - 2]) + 1  # (the end of the line above)
    at = "schema/taxonomy/symptoms.yaml"
    breaks = {
        "\r": "IL303 [error] 1 line ends with a lone CR, which starts a line for YAML readers "
        "but not for git, GitHub or lint's line numbers; use LF",
        "\u2028": "IL303 [error] U+2028 LINE SEPARATOR ends a line for YAML 1.1 (curator) but "
        "not for editors, GitHub or YAML 1.2 readers (ruamel.yaml); replace it with a line "
        "feed or a space",
        "\x85": "IL303 [error] U+0085 NEXT LINE ends a line for YAML 1.1 (curator) but not "
        "for editors, GitHub or YAML 1.2 readers (ruamel.yaml); replace it with a line feed "
        "or a space",
    }
    for char, finding in breaks.items():
        symptoms.write_text(
            text.replace("\n    aliases:", char + "    aliases:", 1), encoding="utf-8", newline=""
        )
        run = run_curator("lint", "--no-cache", cwd=root)
        assert run.code == 1, run
        assert run.out.splitlines() == [f"{at}:{aliases - 1}:{column}: {finding}"], repr(char)
    lines = text.count("\n")
    symptoms.write_text(text.replace("\n", "\r\n"), encoding="utf-8", newline="")
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 0, run
    first = len(text.split("\n")[0]) + 1
    assert run.out.splitlines() == [
        f"{at}:1:{first}: IL305 [warning] {lines} lines end with CRLF; use LF (every YAML "
        "reader reads them alike)"
    ]
    mixed = text.replace("\n", "\r\n").replace("\r\n    aliases:", "\r    aliases:", 1)
    symptoms.write_text(mixed, encoding="utf-8", newline="")
    run = run_curator("lint", "--no-cache", cwd=root)
    assert run.code == 1, run
    assert run.out.splitlines() == [
        f"{at}:{aliases - 1}:{column}: IL303 [error] 1 line ends with a lone CR (and "
        f"{lines - 1} with CRLF), which starts a line for YAML readers but not for git, GitHub "
        "or lint's line numbers; use LF"
    ]
