"""The exact stationary distribution of a finite Markov chain, by p-adic lifting.

The long run's chains (``core.payoff``) have up to a few hundred states, and
their answers thousands of digits: the lookup draft's heuristic chain at
T = 1/4 has 216 states and a 2,092-digit common denominator. Elimination over
the rationals (state reduction, Grassmann, Taksar and Heyman 1985) carries
numbers twice that long through every step of its last, dense part and
reduces each by a gcd; it took 3.7 s on CPython.

Dixon's method (J. D. Dixon, "Exact solution of linear equations using
p-adic expansions", Numerische Mathematik 40, 1982) eliminates once, modulo
a prime p of a few hundred bits, where every number stays that short. Each
lifting step then reads the next base-p digit of the answer with the same
factors, from the integer residual of the digits so far. Once p**s is long
enough, rational reconstruction (Wang 1981) turns the p-adic answer into
fractions, and the fractions are substituted back into the chain's equations
with integers: the result is exact because it is checked, whatever the
prime. The work grows with the answer's length, not with the elimination's.

The chain's equations, with integers: row ``a`` of ``I - P`` times the
common denominator ``den[a]`` of its probabilities gives ``M``, with
``M[a][b] = -flow[a][b]`` (the row's numerators, self-loop left out) and
``M[a][a] = leave[a]``, their sum. The stationary ``pi`` solves
``pi (I - P) = 0``, so ``z = pi / den`` solves ``z M = 0``. One state, the
``root``, gets ``z = 1`` and the others solve the system left without the
root's row and column: nonsingular when the root is recurrent and every state
reaches it (``_root``).
"""

from fractions import Fraction
from math import gcd, isqrt, lcm

# Mersenne primes: any modulus in which the pivots are invertible would do (the answer is
# checked exactly); the next one is tried in the rare case that a pivot is a multiple of one.
MODULI = (2**521 - 1, 2**607 - 1, 2**1279 - 1)


def stationary(chain, nodes, moduli=MODULI):
    """Stationary distribution of ``chain[a][b]`` (probabilities) over ``nodes``, as Fractions.

    The chain must have one closed class of states over ``nodes`` (the states
    outside it, which it leaves for good, get 0); two or more raise ValueError.
    ArithmeticError means that every modulus divided a pivot (none is known to).
    """
    nodes = tuple(nodes)
    if len(nodes) == 1:
        return {nodes[0]: Fraction(1)}
    den, flow, leave = _integer_rows(chain, nodes)
    root = _root(flow, nodes)
    for p in moduli:
        try:
            factors = _factor(flow, leave, nodes, root, p)
        except ZeroDivisionError:
            continue
        z = _lift(flow, leave, nodes, root, p, factors)
        weights = {a: den[a] * z[a] for a in nodes}
        total = sum(weights.values())
        return {a: Fraction(weights[a], total) for a in nodes}
    raise ArithmeticError("every modulus divides a pivot of this chain")


def _reach(moves, start):
    seen, todo = {start}, [start]
    while todo:
        for b in moves[todo.pop()]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def _root(flow, nodes):
    """A state of the closed class, the best connected (its elimination would cost most).

    A state is in the closed class when every state it reaches reaches it back; from one that
    is not, a state it reaches but that cannot return reaches strictly fewer. With the root
    recurrent and reached from every state, the system without it is nonsingular.
    """
    back = {a: set() for a in nodes}
    for a in nodes:
        for b in flow[a]:
            back[b].add(a)
    x = nodes[0]
    while True:
        ahead, behind = _reach(flow, x), _reach(back, x)
        if ahead <= behind:
            break
        x = min(ahead - behind, key=repr)
    if len(behind) < len(nodes):
        raise ValueError("the chain has more than one closed class of states: no single stationary distribution")
    return max(ahead, key=lambda a: (len(flow[a]) + len(back[a]), repr(a)))


def _integer_rows(chain, nodes):
    """Each state's row of ``I - P`` over one common denominator: ``den``, ``flow``, ``leave``."""
    den, flow, leave = {}, {}, {}
    for a in nodes:
        items = {b: Fraction(x) for b, x in chain[a].items() if x and b != a}
        d = lcm(*(x.denominator for x in items.values())) if items else 1
        den[a] = d
        flow[a] = {b: x.numerator * (d // x.denominator) for b, x in items.items()}
        leave[a] = sum(flow[a].values())
    return den, flow, leave


def _factor(flow, leave, nodes, root, p):
    """Eliminate every state but ``root`` modulo ``p`` (state reduction: the sparsest first).

    Returns the elimination as ``(state, 1/leave, exits, sources)`` steps: ``exits[j]`` is the
    rerouted chance of going from the state to ``j`` over its leaving chance, and ``sources[i]``
    the flow from ``i`` into it when it was removed. A pivot with no inverse modulo p raises
    ZeroDivisionError.
    """
    rows = {a: {b: f % p for b, f in flow[a].items() if b != root} for a in nodes if a != root}
    diag = {a: leave[a] % p for a in rows}
    rank = {a: i for i, a in enumerate(sorted(rows, key=repr))}  # ties: the order of their reprs
    into = {a: set() for a in rows}
    for a, out in rows.items():
        for b in out:
            into[b].add(a)
    steps = []
    while rows:
        k = min(rows, key=lambda a: (len(into[a]) * len(rows[a]), rank[a]))
        out_k = rows.pop(k)
        if gcd(diag[k], p) != 1:
            raise ZeroDivisionError(k)
        inv = pow(diag.pop(k), -1, p)
        exits = {j: f * inv % p for j, f in out_k.items()}
        sources = {}
        for i in into.pop(k):
            out_i = rows[i]
            f_ik = out_i.pop(k)
            sources[i] = f_ik
            for j, e in exits.items():
                if j == i:
                    diag[i] = (diag[i] - f_ik * e) % p
                else:
                    out_i[j] = (out_i.get(j, 0) + f_ik * e) % p
                    into[j].add(i)
        for j in out_k:
            into[j].discard(k)
        steps.append((k, inv, exits, sources))
    return steps


def _solve(factors, rhs, p):
    """``z`` with ``z M' = rhs`` modulo ``p`` (M' is M without the root's row and column)."""
    c = dict(rhs)
    for k, _, exits, _ in factors:
        ck = c.get(k, 0) % p
        c[k] = ck
        if ck:
            for j, e in exits.items():
                c[j] = c.get(j, 0) + ck * e
    z = {}
    for k, inv, _, sources in reversed(factors):
        z[k] = (c[k] + sum(z[i] * f for i, f in sources.items())) * inv % p
    return z


def _times(flow, leave, z, keep):
    """``z M`` restricted to the columns in ``keep``, with integers."""
    out = {j: z[j] * leave[j] for j in keep}
    for i, zi in z.items():
        if zi:
            for j, f in flow[i].items():
                if j in out:
                    out[j] -= zi * f
    return out


def _lift(flow, leave, nodes, root, p, factors):
    """The exact ``z`` (root: 1) as integers over a common denominator: ``{state: integer}``
    with the denominator at the root. Lifts digit by digit, reconstructs at a growing schedule,
    and accepts only an answer that satisfies ``z M = 0`` exactly."""
    unknown = [a for a in nodes if a != root]
    residual = {j: f for j, f in flow[root].items() if j != root}  # -z_root * M[root][j], z_root = 1
    # Past a bound on the answer's size (Hadamard's, twice: numerator and denominator, with
    # room to spare) the reconstruction cannot fail; only a bug would get there.
    bound_bits = 2 * sum(((leave[a] ** 2 + sum(f * f for f in flow[a].values())).bit_length() + 1) // 2
                         for a in nodes) + 128
    expansion = dict.fromkeys(unknown, 0)
    power, digits, attempt = 1, 0, 1
    while True:
        y = _solve(factors, residual, p)
        for a in unknown:
            expansion[a] += y.get(a, 0) * power
        power *= p
        digits += 1
        # residual <- (residual - y M') / p: exact, as y M' = residual modulo p
        moved = _times(flow, leave, y, set(unknown))
        residual = {j: (residual.get(j, 0) - moved[j]) // p for j in unknown}
        if digits >= attempt or power.bit_length() > bound_bits:
            found = _reconstruct(expansion, unknown, power)
            if found is not None:
                z = found[1]
                z[root] = found[0]
                if not any(_times(flow, leave, z, set(nodes)).values()):
                    return z
            if power.bit_length() > bound_bits:
                raise ArithmeticError("p-adic lifting did not converge (a bug)")
            # A try costs about what the digits so far cost; trying again at 1.5 times as many
            # digits lifts at most half as many again as the answer needs.
            attempt = digits + max(1, digits // 2)


def _reconstruct(expansion, unknown, m):
    """Fractions ``x`` with ``x = expansion`` modulo ``m`` sharing one denominator, as
    ``(denominator, {state: numerator})``; None when ``m`` is not yet long enough."""
    bound = isqrt(m // 2)
    den = 1
    nums = {}
    for a in unknown:
        y = expansion[a] * den % m
        if y > m // 2:
            y -= m
        if abs(y) > bound:
            found = _rational(y, m, bound)
            if found is None:
                return None
            y, b = found
            # The answer, once m is long enough, leaves room to spare; a candidate that fills
            # m is almost surely noise, and saying so now spares reconstructing the others.
            if (abs(y) * b * den).bit_length() + 64 > m.bit_length():
                return None
            nums = {i: n * b for i, n in nums.items()}
            den *= b
        nums[a] = y
    g = gcd(den, *nums.values())
    return den // g, {a: n // g for a, n in nums.items()}


def _rational(x, m, bound):
    """``(a, b)`` with ``a = b * x`` modulo ``m``, ``|a| <= bound`` and ``0 < b <= bound``, or None.

    Euclid's algorithm on ``(m, x)``, stopped at the first remainder within the bound. While the
    remainders are far above it, runs of quotients are found from the leading 64 bits alone
    (Lehmer's method, Knuth's Algorithm 4.5.2 L) and applied to the long numbers at once.
    """
    r0, r1 = m, x % m
    t0, t1 = 0, 1
    room = bound.bit_length() + 130  # a run shortens the remainders by at most 2**128
    while r1 > bound:
        n = r0.bit_length()
        if r1.bit_length() > room and n > 128:
            a, b = r0 >> (n - 64), r1 >> (n - 64)
            qa, qb, qc, qd = 1, 0, 0, 1
            while b + qc and b + qd:
                q = (a + qa) // (b + qc)
                if q != (a + qb) // (b + qd):
                    break
                qa, qc = qc, qa - q * qc
                qb, qd = qd, qb - q * qd
                a, b = b, a - q * b
            if qb:
                r0, r1 = qa * r0 + qb * r1, qc * r0 + qd * r1
                t0, t1 = qa * t0 + qb * t1, qc * t0 + qd * t1
                continue
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        t0, t1 = t1, t0 - q * t1
    if not t1 or abs(t1) > bound:
        return None
    return (r1, t1) if t1 > 0 else (-r1, -t1)
