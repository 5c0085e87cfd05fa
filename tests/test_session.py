"""The step-wise session: phases, the seed scenarios, records and JSON."""

import json
from fractions import Fraction as F

import pytest

from core import Config, ConfigError, PhaseError, Session, position, simulate


def biased_seed_1():
    return Session.start(Config("biased", 3, 1))


def test_biased_seed_1_first_block_rejects_before_its_last_proposal_and_discards_the_rest():
    drafted = biased_seed_1().draft()
    assert [x.status for x in drafted.pending.proposals] == ["proposed"] * 3
    assert drafted.output == ()  # proposals are not output yet
    block = drafted.verify().pending
    statuses = [x.status for x in block.proposals]
    rejected_at = statuses.index("rejected")
    assert rejected_at < len(statuses) - 1
    assert statuses[:rejected_at] == ["accepted"] * rejected_at
    assert statuses[rejected_at + 1:] == ["discarded"] * (len(statuses) - rejected_at - 1)
    for x in block.proposals[rejected_at + 1:]:
        assert x.u is None and x.accept_probability is None  # not judged, whatever they look like
    assert block.correction is not None and block.bonus is None
    assert block.correction.source == "residual"
    assert block.committed == tuple(x.token for x in block.proposals[:rejected_at]) + (block.correction.token,)


def test_biased_seed_1_first_proposal_shows_the_seed_numbers():
    first = biased_seed_1().draft().verify().pending.proposals[0]
    assert first.prefix == ()
    assert first.q == (F("0.80"), F("0.15"), F("0.05"))
    assert first.p == (F("0.50"), F("0.30"), F("0.20"))
    assert first.token == "A" and first.ratio == F(5, 8) and first.accept_probability == F(5, 8)
    assert (first.u < first.ratio) == (first.status == "accepted")


def test_the_correction_is_drawn_from_the_residual_of_its_position():
    block = biased_seed_1().run_block().blocks[0]
    c = block.correction
    assert c.residual == (F(0), F(7, 10), F(3, 10))  # after A: p = [.2,.6,.2], q = [.7,.25,.05]
    assert c.rejection == F(1) - sum(min(a, b) for a, b in zip(c.p, c.q))
    assert c.residual[("A", "B", "C").index(c.token)] > 0


@pytest.mark.parametrize("seed", [0, 1, 2, 17, 12345, 2**64 - 1])
def test_aligned_draft_width_3_accepts_everything_and_fills_8_tokens_in_two_passes(seed):
    s = Session.start(Config("aligned", 3, seed))
    s = s.draft().verify()
    assert all(x.status == "accepted" for x in s.pending.proposals)
    assert s.pending.bonus is not None
    s = s.commit()
    assert len(s.output) == 4 and s.counters.target_passes == 1
    s = s.run_block()
    assert len(s.output) == 8 and s.counters.target_passes == 2
    assert s.phase == "done" and not s.can("draft") and not s.can("step")
    with pytest.raises(PhaseError, match="end-of-sequence"):
        s.draft()


def test_the_last_block_drafts_only_what_fits_and_takes_no_bonus_at_the_limit():
    s = Session.start(Config("aligned", 5, 3)).run_block()  # 5 + bonus = 6
    s = s.draft()
    assert len(s.pending.proposals) == 2  # min(width, tokens left)
    s = s.verify()
    assert s.pending.bonus is None and len(s.pending.committed) == 2


@pytest.mark.parametrize(
    "action, message",
    [("verify", "Verify scores a drafted block, but no block is drafted yet: the next step is Draft"),
     ("commit", "Commit appends a verified block, but no block is drafted yet")],
)
def test_an_action_in_the_wrong_phase_raises_a_clear_error(action, message):
    with pytest.raises(PhaseError) as err:
        getattr(Session.start(Config()), action)()
    assert message in str(err.value)


def test_the_phases_cycle_draft_verify_commit():
    s = Session.start(Config("biased", 2, 5))
    seen = []
    while s.phase != "done":
        seen.append(s.next_action)
        assert s.can(s.next_action)
        s = s.step()
    assert seen[:3] == ["draft", "verify", "commit"]
    assert len(seen) % 3 == 0


def test_step_by_step_equals_run_block_equals_simulate():
    stepped = Session.start(Config("biased", 4, 9))
    while stepped.phase != "done":
        stepped = stepped.draft().verify().commit()
    assert stepped.trace() == Session.start(Config("biased", 4, 9)).run_to_end().trace()
    assert stepped.trace() == simulate("biased", 4, 9)


def test_changing_draft_width_or_seed_starts_a_new_trace():
    s = biased_seed_1().run_block()
    for change in ({"seed": 2}, {"width": 4}, {"draft": "aligned"}):
        fresh = s.reconfigure(**change)
        assert fresh.blocks == () and fresh.output == () and fresh.phase == "draft"
    assert s.reset() == biased_seed_1()


def test_sessions_are_immutable_so_the_previous_one_is_still_there():
    before = biased_seed_1()
    after = before.draft()
    assert before.pending is None and after.pending is not None
    with pytest.raises(Exception):
        after.output = ("A",)


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"draft": "greedy"}, "unknown draft 'greedy'; choose one of: aligned, biased"),
        ({"width": 0}, "width must be from 1 to 8, got 0"),
        ({"width": 9}, "width must be from 1 to 8, got 9"),
        ({"width": "3"}, "width must be a whole number"),
        ({"seed": -1}, "seed must be from 0"),
        ({"variant": "fast"}, "unknown variant 'fast'"),
        ({"lookahead": 0.5}, "lookahead must be an exact fraction"),
        ({"lookahead": F(3, 2)}, "lookahead must be from 0 to 1"),
    ],
)
def test_bad_settings_are_refused_with_a_readable_sentence(fields, message):
    with pytest.raises(ConfigError) as err:
        Config(**fields)
    assert message in str(err.value)


def test_the_json_form_keeps_the_documented_names():
    data = json.loads(simulate("biased", 3, 1).to_json())
    assert {"draft", "width", "seed", "max_tokens", "output", "blocks", "counters"} <= set(data)
    assert (data["draft"], data["width"], data["seed"], data["max_tokens"]) == ("biased", 3, 1, 8)
    first = data["blocks"][0]
    assert first["prefix"] == []
    assert {"prefix", "proposals", "correction", "bonus", "committed"} <= set(first)
    p0 = first["proposals"][0]
    assert {"token", "q", "p", "ratio", "accept_probability", "u", "status"} <= set(p0)
    assert p0["q"] == ["4/5", "3/20", "1/20"] and p0["p"] == ["1/2", "3/10", "1/5"]
    assert p0["ratio"] == "5/8" and p0["accept_probability"] == "5/8"
    assert F(p0["u"]) < 1
    assert set(first["correction"]) >= {"residual", "u", "token"}
    assert first["bonus"] is None
    assert set(data["counters"]) >= {"target_passes", "draft_steps", "proposed", "accepted", "rejected",
                                     "discarded", "corrections", "bonus", "committed"}
    assert data["counters"]["committed"] == len(data["output"]) == 8


def test_markdown_and_text_forms_name_every_block():
    trace = simulate("biased", 3, 1)
    md = trace.to_markdown()
    assert md.count("\n| ") == len(trace.blocks) + 2  # header, rule, one row per block
    assert "not measured latency" in md
    assert trace.to_text().count("block ") == len(trace.blocks)


def test_position_gives_the_rows_the_inspector_shows_before_any_draw():
    d = position("biased")
    assert d.q == (F("0.80"), F("0.15"), F("0.05")) and d.p == (F("0.50"), F("0.30"), F("0.20"))
    assert d.residual == (F(0), F(1, 2), F(1, 2))
    assert position("biased", ("B", "A")).p == (F("0.20"), F("0.60"), F("0.20"))  # only the last token matters


@pytest.mark.parametrize("draft, width, seed", [("biased", 3, 1), ("aligned", 3, 0), ("biased", 8, 42), ("biased", 1, 7)])
def test_draws_follow_the_documented_order_of_the_prng_stream(draft, width, seed):
    from core import prng
    trace = simulate(draft, width, seed)
    rng, stream = prng.seed(seed), []
    for _ in trace.draws():
        rng, k = prng.step(rng)
        stream.append(prng.as_u(k))
    assert [d.u for d in trace.draws()] == stream
    uses = [d.use for d in trace.draws() if d.block == 0]
    n = len(trace.blocks[0].proposals)
    assert uses[:n] == ["propose"] * n  # drafting first, then the tests, then one correction or bonus
    assert set(uses[n:-1]) <= {"test"} and uses[-1] in ("test", "correction", "bonus")


def test_sampler_refuses_seeds_that_would_pass_2_64_minus_1_instead_of_wrapping():
    from core.sampler import sample_prefixes, sample_target
    top = 2**64 - 1
    # the last run alone, seed 2**64 - 1, is fine: it is the largest seed
    assert sum(sample_prefixes("biased", 3, 2, 1, base_seed=top).values()) == 1
    assert sum(sample_prefixes("biased", 3, 2, 10, base_seed=top - 9).values()) == 10
    for sample in (lambda: sample_prefixes("biased", 3, 2, 10, base_seed=top - 8),
                   lambda: sample_target(2, 10, top - 8)):
        with pytest.raises(ValueError, match=r"^10 runs from seed 18446744073709551607 would pass the largest seed, "
                                             r"2\*\*64 - 1; start from seed 18446744073709551606 or lower$"):
            sample()


def test_the_generator_refuses_a_seed_outside_64_bits_rather_than_masking_it():
    from core import prng
    from core.sampler import ordinary_output
    assert prng.seed(2**64 - 1) != prng.seed(0)
    for bad in (2**64, -1):
        with pytest.raises(ValueError, match="from 0 to 2\\*\\*64 - 1"):
            prng.seed(bad)
        with pytest.raises(ConfigError, match="seed must be from 0 to"):
            ordinary_output(bad)
