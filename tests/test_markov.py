"""core.markov: the exact stationary distribution by p-adic lifting (issue 24 item 8).

The lifting must give the very Fractions that state reduction over the
rationals gave (``state_reduction`` below is ``core.payoff.stationary`` as it
was), on every chain the long run builds and on random ones.
"""

import random
from fractions import Fraction
from math import gcd, isqrt, lcm

import pytest

from core import markov, payoff
from core.drafts import ALL_DRAFTS
from core.transform import Transform
from toy_tables import TOKENS

F = Fraction


def state_reduction(chain, nodes=TOKENS):
    """``core.payoff.stationary`` until issue 24 item 8, word for word: the reference.

    Stationary distribution of ``chain[s][t]`` over ``nodes``, exactly.

    State reduction (Grassmann, Taksar and Heyman 1985): states are removed
    one at a time, the sparsest first, rerouting the paths through each; then
    the probabilities are rebuilt in reverse. The chain must be irreducible
    over ``nodes`` (every chain built here is: its nodes are those reachable
    from a recurrent one).

    Each row is kept as integers over one row denominator, reduced by one
    gcd sweep after each rerouting, rather than as Fractions (which pay a gcd
    per addition and two per product): the lookup draft's heuristic chain
    (216 states, answers with 668-digit denominators) takes 1.1 s instead
    of 2.8 s on CPython, the same exact numbers.
    """
    rows = {}  # state -> [den, {next state: numerator}], leaving probabilities only (no self-loop)
    for a in nodes:
        items = {b: Fraction(p) for b, p in chain[a].items() if p and b != a}
        den = lcm(*(x.denominator for x in items.values())) if items else 1
        rows[a] = [den, {b: x.numerator * (den // x.denominator) for b, x in items.items()}]
    into = {a: set() for a in nodes}
    for a in nodes:
        for b in rows[a][1]:
            into[b].add(a)
    alive = set(nodes)
    removed = []
    while len(alive) > 1:
        # Ties between equally sparse states go to the shorter denominator: the numbers
        # grow less (the lookup draft's heuristic chain at T = 1/4: 4.2 s, not 6.9 s).
        k = min(alive, key=lambda a: (len(into[a]) * len(rows[a][1]), rows[a][0].bit_length(), repr(a)))
        den_k, out_k = rows[k]
        leave = sum(out_k.values())  # the chance of leaving k is leave / den_k
        sources = {}
        # Where k goes once it leaves: out_k[j] / leave, in lowest terms (smaller products below).
        g = gcd(leave, *out_k.values())
        if g > 1:
            out_k = {j: n // g for j, n in out_k.items()}
        through = leave // g
        for i in into[k]:
            den_i, out_i = rows[i]
            n_ik = out_i.pop(k)
            sources[i] = Fraction(n_ik, den_i)
            # p_ij + p_ik * p_kj / P(leave k), all over den_i * through / h
            h = gcd(n_ik, through)
            via, over = n_ik // h, through // h
            new = {j: n * over for j, n in out_i.items()}
            for j, n_kj in out_k.items():
                if j != i:
                    new[j] = new.get(j, 0) + via * n_kj
                    into[j].add(i)
            den = den_i * over
            g = den
            for n in new.values():
                g = gcd(g, n)
                if g == 1:
                    break
            rows[i] = [den // g, {j: n // g for j, n in new.items()}] if g > 1 else [den, new]
        for j in out_k:
            into[j].discard(k)
        removed.append((k, sources, Fraction(leave, den_k)))
        del rows[k], into[k]
        alive.discard(k)
    weight = {alive.pop(): Fraction(1)}
    for k, sources, leave in reversed(removed):
        weight[k] = sum(weight[i] * p for i, p in sources.items()) / leave
    total = sum(weight.values())
    return {a: weight[a] / total for a in nodes}


def check_stationary(chain, nodes, pi):
    """pi P = pi, sum pi = 1, every pi >= 0: the definition, with Fractions."""
    assert sum(pi.values()) == 1 and all(pi[a] >= 0 for a in nodes)
    for b in nodes:
        assert sum(pi[a] * F(chain[a].get(b, 0)) for a in nodes) == pi[b]


def long_run_chain(draft, width, schedule="fixed", temperature=1, variant="exact", lookahead=None, top_k=None,
                   at="both"):
    """The moves and nodes that ``payoff.chain`` hands to ``stationary`` (its cache bypassed)."""
    seen = []

    def keep(chain, nodes=TOKENS):
        seen.append((chain, tuple(nodes)))
        return markov.stationary(chain, nodes)

    real = payoff.stationary
    payoff.stationary = keep
    try:
        payoff.chain.__wrapped__(draft, width, lookahead, variant, schedule, Transform(F(temperature), top_k, at))
    finally:
        payoff.stationary = real
    (found,) = seen
    return found


CASES = [(d, w, "fixed", t) for d in ALL_DRAFTS for w in (1, 3, 8) for t in (1, F(1, 4))]
CASES += [(d, 1, "heuristic", t) for d in ALL_DRAFTS for t in (1, F(1, 4)) if not (d == "lookup" and t < 1)]


@pytest.mark.parametrize("draft, width, schedule, temperature", CASES,
                         ids=[f"{d}-{w}-{s}-T{t}" for d, w, s, t in CASES])
def test_lifting_gives_the_state_reductions_fractions_on_the_long_runs_chains(draft, width, schedule, temperature):
    chain, nodes = long_run_chain(draft, width, schedule, temperature)
    pi = markov.stationary(chain, nodes)
    assert pi == state_reduction(chain, nodes)
    check_stationary(chain, nodes, pi)


@pytest.mark.parametrize("variant, lookahead, top_k, at", [
    ("naive-resample", None, None, "both"), ("greedy", None, None, "both"), ("typical", F(1, 2), None, "both"),
    ("exact", F(1, 3), 2, "target"), ("exact", None, 2, "draft"),
])
def test_lifting_gives_the_state_reductions_fractions_for_other_rules_and_transforms(variant, lookahead, top_k, at):
    chain, nodes = long_run_chain("biased", 4, "fixed", F(1, 2), variant, lookahead, top_k, at)
    assert markov.stationary(chain, nodes) == state_reduction(chain, nodes)


@pytest.mark.slow
@pytest.mark.parametrize("temperature", [F(1, 2), F(1, 3), F(1, 4)])
def test_lifting_gives_the_state_reductions_fractions_on_the_slow_lookup_heuristic_chain(temperature):
    """The case of issue 24 item 8: 216 states, answers with 2,092-digit denominators at T = 1/4.
    The reference takes about 3.5 s here, the lifting about 0.4 s."""
    chain, nodes = long_run_chain("lookup", 1, "heuristic", temperature)
    assert len(nodes) == 216
    pi = markov.stationary(chain, nodes)
    assert pi == state_reduction(chain, nodes)
    check_stationary(chain, nodes, pi)
    if temperature == F(1, 4):
        assert len(str(lcm(*(x.denominator for x in pi.values())))) == 2092


def random_chain(rng, n):
    """An irreducible chain on n states: a cycle through all of them plus random extra moves,
    self-loops and zeros included, probabilities with assorted denominators."""
    nodes = [f"s{i}" for i in range(n)]
    chain = {}
    for i, a in enumerate(nodes):
        targets = {nodes[(i + 1) % n]} | set(rng.sample(nodes, rng.randint(0, min(n, 4))))
        weights = {b: rng.randint(0, 9) for b in targets}
        weights[nodes[(i + 1) % n]] += 1
        den = rng.choice([1, 2, 3, 7, 10, 12, 97, 1000, 2**61 - 1])
        scaled = {b: w * rng.randint(1, den) for b, w in weights.items()}
        total = sum(scaled.values())
        chain[a] = {b: F(w, total) for b, w in scaled.items()}
    return chain, tuple(nodes)


@pytest.mark.parametrize("seed", range(40))
def test_lifting_gives_the_state_reductions_fractions_on_random_chains(seed):
    rng = random.Random(seed)
    chain, nodes = random_chain(rng, rng.randint(1, 40))
    pi = markov.stationary(chain, nodes)
    assert pi == state_reduction(chain, nodes)
    check_stationary(chain, nodes, pi)


def test_a_two_state_chain_and_a_single_state_have_their_obvious_answers():
    assert markov.stationary({"A": {"B": 1}, "B": {"A": 1}}, ("A", "B")) == {"A": F(1, 2), "B": F(1, 2)}
    assert markov.stationary({"A": {"A": 1}}, ("A",)) == {"A": 1}
    # A birth-death chain: detailed balance gives pi(i + 1) / pi(i) = up(i) / down(i + 1).
    up, down = [F(1, 3), F(2, 5), F(1, 7)], [F(1, 2), F(3, 4), F(5, 6)]
    chain = {0: {1: up[0], 0: 1 - up[0]}, 3: {2: down[2], 3: 1 - down[2]}}
    for i in (1, 2):
        chain[i] = {i + 1: up[i], i - 1: down[i - 1], i: 1 - up[i] - down[i - 1]}
    pi = markov.stationary(chain, (0, 1, 2, 3))
    for i in range(3):
        assert pi[i + 1] / pi[i] == up[i] / down[i]


def test_states_the_chain_leaves_for_good_get_zero_wherever_they_are_listed():
    """The aligned draft's heuristic chain never returns to widths 1, 3, 5 and 7: the first node
    listed is one of them, and the root of the system must not be."""
    chain, nodes = long_run_chain("aligned", 1, "heuristic")
    pi = markov.stationary(chain, nodes)
    assert pi[nodes[0]] == 0 and {a[1] for a in nodes if pi[a]} == {8}
    chain = {"T": {"T": F(1, 2), "A": F(1, 2)}, "A": {"B": 1}, "B": {"A": F(1, 4), "B": F(3, 4)}}
    assert markov.stationary(chain, ("T", "A", "B")) == {"T": 0, "A": F(1, 5), "B": F(4, 5)}
    assert markov.stationary({"B": {"A": F(1, 2), "B": F(1, 2)}, "A": {"A": 1}}, ("B", "A")) == {"B": 0, "A": 1}


def test_a_chain_with_two_closed_classes_is_refused_in_words():
    chain = {"A": {"A": 1}, "B": {"B": 1}, "C": {"A": F(1, 2), "B": F(1, 2)}}
    with pytest.raises(ValueError, match="more than one closed class"):
        markov.stationary(chain, ("C", "A", "B"))


def test_a_modulus_that_divides_a_pivot_is_passed_over_for_the_next():
    """Every state leaves with chance 3/3: each pivot is 3, 0 modulo 3. With 3 alone there is no
    answer (and no wrong one); with 3 first the next modulus gives the same exact answer."""
    chain = {"A": {"B": F(1, 3), "C": F(2, 3)}, "B": {"A": F(2, 3), "C": F(1, 3)}, "C": {"A": F(1, 3), "B": F(2, 3)}}
    with pytest.raises(ArithmeticError):
        markov.stationary(chain, TOKENS, moduli=(3,))
    assert markov.stationary(chain, TOKENS, moduli=(3, 2**521 - 1)) == state_reduction(chain)


@pytest.mark.parametrize("moduli", [(5, 7, 11, 13, 101), (2**61 - 1,), (2**127 - 1,), (2**1279 - 1,)])
def test_any_modulus_gives_the_same_fractions(moduli):
    """Small primes need hundreds of lifting steps (and some divide a pivot: the next is taken)."""
    chain, nodes = long_run_chain("heads", 1, "heuristic")
    assert markov.stationary(chain, nodes, moduli=moduli) == state_reduction(chain, nodes)


def euclid_reconstruction(x, m, bound):
    """Wang's rational reconstruction with one long division per quotient: the reference."""
    r0, r1 = m, x % m
    t0, t1 = 0, 1
    while r1 > bound:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        t0, t1 = t1, t0 - q * t1
    if not t1 or abs(t1) > bound:
        return None
    return (r1, t1) if t1 > 0 else (-r1, -t1)


@pytest.mark.parametrize("bits", [60, 300, 2_000, 9_000, 30_000])
def test_lehmers_runs_of_quotients_stop_at_the_same_remainder_as_plain_euclid(bits):
    rng = random.Random(bits)
    m = (2**521 - 1) ** (bits // 521 + 1)
    bound = isqrt(m // 2)
    for trial in range(12):
        a = rng.getrandbits(bits // 2 - 8) * rng.choice((1, -1))
        b = rng.getrandbits(bits // 2 - 8) | 1
        x = rng.randrange(m) if trial % 3 == 0 else a * pow(b, -1, m) % m
        found = markov._rational(x, m, bound)
        assert found == euclid_reconstruction(x, m, bound)
        if trial % 3:
            assert F(*found) == F(a, b)
