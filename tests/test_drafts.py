"""The lookup and heads drafts, the heuristic width schedule, and temperature/top-k (issue 12)."""

import subprocess
import sys
from fractions import Fraction as F

import pytest

import toy_tables
import core
from core import ALL_DRAFTS, Config, ConfigError, Session, exact, payoff, prng, simulate
from core.block import committed, draft_block, verify_block
from core.drafts import HeadsDraft, LookupDraft, lookup_match, setup, state_of
from core.numbers import InputError
from core.schedule import ALL_ACCEPTED, NOTHING, REJECTED, next_width, verdict
from core.transform import NONE, Transform, parse_temperature, parse_top_k, power, top_k
from core.variants import VARIANTS

from pyodide_runner import ROOT

NEW = ("lookup", "heads")


# ---- exactness ---------------------------------------------------------------------

@pytest.mark.parametrize("draft", NEW)
@pytest.mark.parametrize("width", range(1, 9))
def test_new_drafts_are_exact_for_widths_1_to_8_and_lengths_1_to_4(draft, width):
    for k in range(1, 5):
        c = exact.compare(draft, width, k)
        assert c.distance == 0 and sum(c.result.values()) == 1, (draft, width, k)


@pytest.mark.parametrize("draft", ALL_DRAFTS)
@pytest.mark.parametrize("width", range(1, 9))
def test_the_heuristic_schedule_keeps_every_draft_exact(draft, width):
    for k in range(1, 5):
        assert exact.compare(draft, width, k, schedule="heuristic").distance == 0, (draft, width, k)


@pytest.mark.parametrize("draft", ALL_DRAFTS)
@pytest.mark.parametrize("at", ("both", "target"))
def test_a_transformation_verified_with_the_transformed_target_is_exact_for_it(draft, at):
    for t in (Transform(F(1, 2), None, at), Transform(1, 2, at), Transform(F(1, 3), 1, at), Transform(F(1, 4), 2, at)):
        for width in (1, 3):
            c = exact.compare(draft, width, 3, transform=t, schedule="heuristic" if width == 3 else "fixed")
            assert c.distance == 0, (draft, at, t, width)


def test_transforming_only_the_draft_misses_the_transformed_target_by_3_19_at_one_token():
    # First token: the output follows the raw target [1/2, 3/10, 1/5]; the user asked for
    # temperature 1/2, [1/4, 9/100, 1/25] / (38/100) = [25/38, 9/38, 4/38].
    c = exact.compare("biased", 1, 1, transform=Transform(F(1, 2), None, "draft"))
    assert c.target == {("A",): F(25, 38), ("B",): F(9, 38), ("C",): F(4, 38)}
    assert c.result == {("A",): F(1, 2), ("B",): F(3, 10), ("C",): F(1, 5)}
    assert c.distance == F(3, 19) and c.first_departure == 1


@pytest.mark.parametrize("draft", ALL_DRAFTS)
def test_transforming_only_the_draft_gives_a_positive_exact_distance_equal_to_the_raw_targets(draft):
    for t in (Transform(F(1, 2), None, "draft"), Transform(1, 1, "draft"), Transform(F(1, 4), 2, "draft")):
        c = exact.compare(draft, 3, 3, transform=t)
        raw = exact.target_distribution(3)
        assert c.result == raw  # verification with the raw target: the output is the raw target's
        assert c.distance == exact.total_variation(raw, exact.target_distribution(3, t)) > 0


def test_the_identity_transform_applied_to_the_draft_only_still_keeps_the_target():
    assert exact.compare("biased", 3, 3, transform=Transform(1, None, "draft")).distance == 0


# ---- the lookup draft ---------------------------------------------------------------

def test_lookup_has_nothing_to_propose_at_first_so_block_1_is_an_ordinary_step():
    for seed in range(20):
        first = simulate("lookup", 3, seed).blocks[0]
        assert first.proposals == () and first.ordinary_step and first.bonus.p == (F(1, 2), F(3, 10), F(1, 5))
        assert len(first.committed) == 1


def test_lookup_copies_what_followed_the_most_recent_earlier_occurrence():
    assert lookup_match(("A", "B", "C", "A")) == 0
    assert lookup_match(("A", "B", "A", "C", "A")) == 2
    assert lookup_match(("A", "B", "C")) is None
    drafter = LookupDraft()
    # "A B C A": copy B (after the A at 0), then C (after B), then A (after C)
    state = state_of(drafter, ("A", "B", "C", "A"))
    assert [r.hot for r in drafter.chain(state)[:3]] == [1, 2, 0]
    # "A B A C A": the most recent earlier A (index 2) was followed by C
    assert drafter.chain(state_of(drafter, ("A", "B", "A", "C", "A")))[0].hot == 2


def test_later_lookup_proposals_treat_earlier_proposals_as_text():
    drafter = LookupDraft()
    # "B B": copy B; the text is then "B B B", whose last B was last followed by B: copy B again
    assert [r.hot for r in drafter.chain(state_of(drafter, ("B", "B")))[:3]] == [1, 1, 1]


def test_a_lookup_proposal_is_accepted_with_probability_p_x_and_uses_no_drafting_draw():
    seen = 0
    for seed in range(40):
        for block in simulate("lookup", 4, seed).blocks:
            for x in block.proposals:
                assert x.q_x == 1 and sorted(x.q) == [0, 0, 1] and x.draft_k is None
                if x.status != "discarded":
                    assert x.accept_probability == x.p_x == x.ratio
                    seen += 1
            if block.correction is not None:
                rejected = next(x for x in block.proposals if x.status == "rejected")
                i = "ABC".index(rejected.token)
                p = block.correction.p
                assert block.correction.residual == tuple(F(0) if j == i else v / (1 - p[i]) for j, v in enumerate(p))
                assert block.correction.rejection == 1 - p[i]
    assert seen > 50


def test_counters_count_ordinary_steps_apart_from_bonuses():
    for seed in range(30):
        trace = simulate("lookup", 2, seed)
        n = trace.counters
        assert n.ordinary_steps == sum(b.ordinary_step for b in trace.blocks) >= 1
        assert n.bonus == sum(b.bonus is not None and bool(b.proposals) for b in trace.blocks)
        assert n.accepted + n.corrections + n.bonus + n.ordinary_steps == n.committed == 8
        assert [d.use for d in trace.draws()].count("ordinary") == n.ordinary_steps


# ---- the heads draft ----------------------------------------------------------------

def test_head_2_is_the_committed_row_times_the_target_matrix():
    heads = setup("heads").drafter
    rows = toy_tables.target.rows
    # after A: [0.2, 0.6, 0.2] x P = 0.2*[.2,.6,.2] + 0.6*[.55,.15,.3] + 0.2*[.25,.25,.5] = [0.42, 0.26, 0.32]
    assert heads.row_at("A", 1, "B").fracs == (F(42, 100), F(26, 100), F(32, 100))
    assert heads.row_at("A", 0, "C").fracs == rows["A"]
    assert heads.row_at("", 0, "A").fracs == rows[""]


def test_the_first_head_is_always_accepted_and_later_heads_are_tested_against_p():
    later = []
    for seed in range(40):
        for block in simulate("heads", 4, seed).blocks:
            assert block.proposals[0].accept_probability == 1 and block.proposals[0].status == "accepted"
            head_rows = setup("heads").drafter.heads
            for x in block.proposals:
                assert x.q == head_rows[x.index][block.prefix[-1] if block.prefix else ""].fracs
                assert x.draft_k is not None
            later += [x.accept_probability for x in block.proposals[1:] if x.status != "discarded"]
    assert later and min(later) < 1


# ---- the heuristic schedule ---------------------------------------------------------

def test_the_heuristic_adds_2_after_a_full_acceptance_else_subtracts_1_within_1_to_8():
    assert next_width("heuristic", 3, ALL_ACCEPTED) == 5
    assert next_width("heuristic", 7, ALL_ACCEPTED) == 8
    assert next_width("heuristic", 3, REJECTED) == 2
    assert next_width("heuristic", 1, REJECTED) == 1
    assert next_width("heuristic", 4, NOTHING) == 4
    assert next_width("fixed", 4, ALL_ACCEPTED) == 4
    assert verdict(0, 0) == NOTHING and verdict(3, 3) == ALL_ACCEPTED and verdict(3, 2) == REJECTED


@pytest.mark.parametrize("draft", ALL_DRAFTS)
def test_every_block_records_the_width_the_schedule_gave_it(draft):
    for seed in range(20):
        trace = simulate(draft, 2, seed, max_tokens=30, schedule="heuristic")
        width = 2
        for b in trace.blocks:
            assert b.width == width and b.to_dict()["width"] == width
            assert len(b.proposals) <= min(width, 30 - len(b.prefix))
            width = next_width("heuristic", width, verdict(len(b.proposals), b.count("accepted")))


def test_the_aligned_draft_grows_3_5_7_8_under_the_heuristic():
    trace = simulate("aligned", 3, 0, max_tokens=40, schedule="heuristic")
    assert [b.width for b in trace.blocks][:5] == [3, 5, 7, 8, 8]


def _long_run_by_sampling(draft, blocks, seed, schedule="heuristic", width=1):
    """Tokens per pass over many blocks with no output limit, by the block machinery itself."""
    s = setup(draft)
    variant, drafter = VARIANTS["exact"], s.drafter
    rng, state, tokens = prng.seed(seed), drafter.start, 0
    for _ in range(blocks):
        rng, raw, _, qs = draft_block(variant, drafter, state, width, None, rng)
        rng, judged, outcome = verify_block(variant, s.target, drafter.last(state), raw, qs, width + 1, rng)
        new = committed(raw, judged, outcome)
        tokens += len(new)
        state = drafter.advance(state, new)
        width = next_width(schedule, width, verdict(len(raw), sum(a for a, _, _ in judged)))
    return tokens / blocks


@pytest.mark.parametrize("draft", ("biased", "heads"))
def test_the_heuristic_long_run_matches_20000_sampled_blocks(draft):
    exact_tokens, _ = payoff.long_run(draft, 1, schedule="heuristic")
    sampled = _long_run_by_sampling(draft, 20_000, 7)
    assert abs(sampled - float(exact_tokens)) < 0.03 * float(exact_tokens), (sampled, float(exact_tokens))


def test_the_heuristic_long_run_forgets_the_starting_width():
    assert payoff.long_run("biased", 1, schedule="heuristic") == payoff.long_run("biased", 8, schedule="heuristic")


def test_a_fixed_width_chain_agrees_with_the_old_token_chain_for_the_aligned_draft():
    # aligned: every proposal is accepted, so a width-3 block always commits 4 tokens
    assert payoff.long_run("aligned", 3) == (4, 3)
    assert payoff.long_run("aligned", 1, schedule="heuristic") == (9, 8)  # it climbs to 8 and stays


def test_compare_schedules_puts_the_heuristic_beside_fixed_widths_and_lookahead():
    c = payoff.compare_schedules("heads", F(1, 10))
    assert len(c.fixed.rows) == 8 and len(c.lookahead.rows) == 8
    assert c.heuristic.schedule == "heuristic" and c.heuristic.width is None and 1 <= c.heuristic.mean_width <= 8
    best_fixed = c.fixed.rows[c.fixed.best_width - 1].time_per_token
    assert c.best_time_per_token == min(best_fixed, c.lookahead.rows[c.lookahead.best_width - 1].time_per_token,
                                        c.heuristic.time_per_token)


def test_the_heuristic_trace_expectation_matches_the_mean_of_sampled_traces():
    expected = payoff.trace_expectation("biased", 3, schedule="heuristic")
    passes = [simulate("biased", 3, seed, schedule="heuristic").counters.target_passes for seed in range(3000)]
    mean = sum(passes) / len(passes)
    assert abs(mean - float(expected.target_passes)) < 0.05, (mean, float(expected.target_passes))


# ---- temperature and top-k ------------------------------------------------------------

def test_temperature_one_half_squares_and_renormalises_exactly():
    assert power((F(1, 2), F(3, 10), F(1, 5)), 2) == (F(25, 38), F(9, 38), F(4, 38))


def test_top_k_breaks_ties_by_token_order_a_before_b_before_c():
    assert top_k((F(1, 4), F(1, 4), F(1, 2)), 2) == (F(1, 3), F(0), F(2, 3))
    assert top_k((F(1, 3), F(1, 3), F(1, 3)), 1) == (F(1), F(0), F(0))
    assert top_k((F(1, 2), F(3, 10), F(1, 5)), 3) == (F(1, 2), F(3, 10), F(1, 5))


def test_temperature_reads_one_half_and_point_five_alike_and_refuses_others_in_one_line():
    assert parse_temperature("1/2") == parse_temperature("0.5") == F(1, 2)
    assert parse_temperature("0.25") == F(1, 4) and parse_temperature("1") == 1
    for bad in ("0.3", "2", "0", "abc", "1e-1", "1/5"):
        with pytest.raises(InputError) as e:
            parse_temperature(bad)
        assert "\n" not in str(e.value)
    assert parse_top_k("2") == 2
    for bad in ("0", "4", "1.5"):
        with pytest.raises(InputError):
            parse_top_k(bad)


def test_config_refuses_a_bad_schedule_temperature_top_k_or_place():
    for fields in ({"schedule": "fast"}, {"temperature": F(1, 5)}, {"temperature": 0.5}, {"top_k": 4},
                   {"transform_at": "nowhere"}, {"draft": "medusa"}):
        with pytest.raises(ConfigError):
            Config(**fields)


def test_transform_at_draft_leaves_verification_on_the_raw_target():
    s = setup("biased", Transform(F(1, 2), 1, "draft"))
    assert s.target["A"].fracs == toy_tables.target.rows["A"]
    assert s.drafter.rows["A"].fracs == (F(1), F(0), F(0))  # biased after A: 0.70 is the top-1
    assert s.reference["A"].fracs == (F(0), F(1), F(0))  # target after A: B (0.60) is the top-1
    assert setup("biased").target is setup("aligned").target or setup("biased").target["A"].fracs == \
        toy_tables.target.rows["A"]


def test_a_transformed_trace_says_so_in_its_json():
    d = simulate("heads", 2, 5, temperature=F(1, 2), top_k=2, transform_at="target").to_dict()
    assert (d["temperature"], d["top_k"], d["transform_at"], d["schedule"]) == ("1/2", 2, "target", "fixed")


# ---- the command line ------------------------------------------------------------------

def cli(*args):
    return subprocess.run([sys.executable, "-m", "core", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.parametrize("draft", NEW)
def test_cli_exact_reports_distance_0_for_the_new_drafts(draft):
    out = cli("exact", "--draft", draft, "--width", "4", "--length", "3", "--schedule", "heuristic")
    assert out.returncode == 0 and "total-variation distance: 0\n" in out.stdout and "equal: yes" in out.stdout


def test_cli_exact_reports_3_19_for_a_temperature_applied_to_the_draft_only():
    out = cli("exact", "--draft", "biased", "--width", "1", "--length", "1", "--temperature", "0.5",
              "--transform-at", "draft")
    assert out.returncode == 0 and "total-variation distance: 3/19 ≈ 0.157895" in out.stdout
    assert "raw target" in out.stdout


@pytest.mark.parametrize("args, says", [
    (("--temperature", "0.3"), "--temperature must be 1, 1/2, 1/3 or 1/4"),
    (("--top-k", "4"), "--top-k must be from 1 to 3"),
    (("--top-k", "1e1"), "--top-k"),
    (("--transform-at", "verifier"), "invalid choice"),
    (("--schedule", "adaptive"), "invalid choice"),
])
def test_cli_refuses_bad_new_options_in_one_line(args, says):
    out = cli("trace", "--draft", "lookup", "--width", "2", "--seed", "1", *args)
    assert out.returncode == 2 and says in out.stderr and out.stderr.count("\n") == 1 and not out.stdout


def test_cli_trace_json_records_each_blocks_width():
    import json
    out = cli("trace", "--draft", "heads", "--width", "1", "--seed", "3", "--schedule", "heuristic", "--json")
    blocks = json.loads(out.stdout)["blocks"]
    assert blocks[0]["width"] == 1 and all("ordinary_step" in b for b in blocks)


def test_a_session_stepped_phase_by_phase_equals_the_simulated_trace_for_new_drafts():
    for draft in NEW:
        for seed in range(10):
            config = Config(draft, 3, seed, 8, "exact", None, "heuristic", F(1, 2), 2, "target")
            s = Session.start(config)
            while s.phase != "done":
                s = s.step()
            assert s.trace() == Session.start(config).run_to_end().trace()


def test_the_none_transform_is_the_default():
    assert Config().transform == NONE and Config().transform.identity


def test_the_heuristic_figures_are_exact_fractions_not_floats():
    h = payoff.heuristic_payoff("biased", "0.1")
    assert all(isinstance(x, F) for x in (h.tokens_per_pass, h.draft_steps_per_pass, h.time_per_token, h.mean_width))
    assert payoff.stationary({"A": {"B": 1}, "B": {"A": 1}}, ("A", "B")) == {"A": F(1, 2), "B": F(1, 2)}


def test_the_heuristic_beats_no_fixed_width_for_the_biased_draft_at_c_one_tenth():
    # Exact long run: the best fixed width (3) needs less time per token than the heuristic,
    # which averages a width near 2.59 but reacts to the last block only.
    c = payoff.compare_schedules("biased", F(1, 10))
    assert c.fixed.best_width == 3 and c.best == "fixed"
    assert c.fixed.rows[2].time_per_token < c.heuristic.time_per_token


def test_cli_payoff_adds_the_heuristic_row():
    out = cli("payoff", "--draft", "heads", "--cost", "0.1", "--schedule", "heuristic")
    assert out.returncode == 0 and "heuristic schedule" in out.stdout and "average width" in out.stdout


def test_the_inspector_sees_the_copy_as_a_one_hot_q_and_nothing_before_a_repeat():
    from core import position
    from core.drafts import next_q
    assert position("lookup", ("A", "B")) is None  # B never occurred before: an ordinary step follows
    d = position("lookup", ("A", "B", "A"))  # copies B, which followed the earlier A
    assert d.q == (0, 1, 0) and d.accepted == (0, F(3, 5), 0) and d.residual == (F(1, 2), 0, F(1, 2))
    assert next_q("lookup", ("A", "B", "A"), ("B",)) == (1, 0, 0)  # "A B A B": B was followed by A
    assert position("heads", ("C",)).q == toy_tables.target.rows["C"] and position("heads", ("C",)).rejection == 0
    assert next_q("heads", ("A",), ("C",)) == (F(42, 100), F(26, 100), F(32, 100))


def test_sampled_runs_with_the_transform_at_the_draft_fail_the_chi_square_against_the_transformed_target():
    from core import sampler, stats
    t = Transform(F(1, 2), None, "draft")
    counts = sampler.sample_prefixes("biased", 3, 2, 4000, temperature=F(1, 2), transform_at="draft")
    asked = exact.target_distribution(2, t)
    assert stats.chi_square(counts, asked).p_value < 1e-6
    assert stats.chi_square(counts, exact.target_distribution(2)).p_value > 1e-4  # it follows the raw target
    ordinary = sampler.sample_target(2, 4000, transform=t)
    assert stats.chi_square(ordinary, asked).p_value > 1e-4


def _dense_stationary(moves, nodes):
    """pi = pi P, sum pi = 1, by plain Gauss-Jordan elimination with Fractions: slow, obviously right."""
    n = len(nodes)
    index = {a: i for i, a in enumerate(nodes)}
    rows = [[F(0)] * (n + 1) for _ in range(n)]
    for a in nodes:
        for b, p in moves[a].items():
            rows[index[b]][index[a]] += F(p)
    for i in range(n):
        rows[i][i] -= 1
    rows[-1] = [F(1)] * n + [F(1)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[col])]
    return {a: rows[index[a]][n] for a in nodes}


@pytest.mark.parametrize("draft", ["biased", "heads"])
def test_state_reduction_on_integer_rows_equals_a_dense_exact_solve(draft):
    from core.exact import block_branches
    from core.schedule import next_width
    drafter = core.drafts.setup(draft).drafter
    moves, todo = {}, [("A", 1)]
    while todo:
        node = todo.pop()
        if node in moves:
            continue
        state, w = node
        out = {}
        for seq, verdict, prob in block_branches("exact", draft, w, state, w + 1):
            nxt = (core.drafts.after(drafter, state, seq), next_width("heuristic", w, verdict))
            out[nxt] = out.get(nxt, 0) + prob
        moves[node] = out
        todo.extend(n for n in out if n not in moves)
    nodes = tuple(sorted(moves, key=repr))
    assert payoff.stationary(moves, nodes) == _dense_stationary(moves, nodes)


def test_the_lookup_heuristic_long_run_matches_the_readme():
    h = payoff.heuristic_payoff("lookup", F(1, 10))
    assert f"{float(h.time_per_token):.3f}" == "0.790" and f"{float(h.mean_width):.2f}" == "1.97"
