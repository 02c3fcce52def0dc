#!/usr/bin/env python3
"""Writes the Combat Results Table cases, 7.61-crt-*.yaml, one for each
column of each terrain line and two for each line's edges (below its first
heading, beyond +10), each with six attacks rolling 1 to 6.

The table below is typed from the CRT transcription of the rules digest
(section 5.4, reading IW1: every line starts at column 1), not taken from
the engine, so that a case fails when the engine's table is wrong.
Run from this directory: python3 gen/crt-cases.py
"""

# Rows are die 1 to 6, columns 1 to 12.
TABLE = """
A1 A1 NE NE D1 D1 D1 D2 D2 D3 De De
A1 A1 A1 NE NE D1 D1 D1 D2 D2 D3 De
A2 A1 A1 A1 NE NE D1 D1 D1 D2 D2 D3
A2 A2 A1 A1 A1 NE NE D1 D1 D1 D2 D2
A3 A2 A2 A1 A1 A1 NE NE D1 D1 D1 D2
Ae A2 A2 A2 A1 A1 A1 NE NE D1 D1 D1
"""
CRT = [row.split() for row in TABLE.strip().splitlines()]

# Each line's column headings, from column 1, as the digest prints them.
HEADINGS = {
    "rough": ["-2", "-1", "0", "+1", "+2,3", "+4,5", "+6,7", "+8,9", "+10"],
    "broken": ["-3", "-2", "-1", "0", "+1", "+2,3", "+4,5", "+6,7", "+8,9", "+10"],
    "river": ["-5", "-4,3", "-2", "-1", "0", "+1", "+2,3", "+4,5", "+6,7", "+8,9", "+10"],
    "clear": ["-7", "-6,5", "-4,3", "-2", "-1", "0", "+1", "+2,3", "+4,5", "+6,7", "+8,9", "+10"],
}

DEFENSE = 20
# Six duels far apart: attacker at (col, row), defender in the hex south.
PAIRS = [(4, 4), (12, 4), (20, 4), (4, 12), (12, 12), (20, 12)]


def hexid(c, r):
    return "%02d%02d" % (c, r)


def values(heading):
    return [int(v if i == 0 else heading[0] + v) for i, v in enumerate(heading.split(","))]


def write(name, title, rule, line, diffs, columns, why):
    units, attacks, expects, terrain, sides = [], [], [], [], []
    for k, ((c, r), d, col) in enumerate(zip(PAIRS, diffs, columns)):
        die = k + 1
        a, dh = hexid(c, r), hexid(c, r + 1)
        units.append('  - {id: U%d, side: us, class: infantry, attack: %d, defense: 4, movement: 4, hex: "%s"}' % (die, DEFENSE + d, a))
        units.append('  - {id: J%d, side: japan, class: infantry, attack: 4, defense: %d, movement: 4, hex: "%s"}' % (die, DEFENSE, dh))
        attacks.append("    - {defenders: [J%d], attackers: [U%d]}" % (die, die))
        res = CRT[die - 1][col - 1]
        expects.append("    - {attack: %d, defense: %d, differential: %+d, line: %s, column: %d, die: %d, result: %s}"
                       % (DEFENSE + d, DEFENSE, d, line, col, die, res))
        if line == "rough":
            terrain.append('"%s"' % dh)
        if line == "broken":
            terrain.append('"%s"' % dh)
        if line == "river":
            sides.append('"%s-%s"' % (a, dh))
    mp = "map:\n  columns: 24\n  rows: 16\n"
    if line == "rough":
        mp += "  terrain: {rough: [%s]}\n" % ", ".join(terrain)
    if line == "broken":
        mp += "  terrain: {broken: [%s], town: [%s]}\n" % (", ".join(terrain[0::2]), ", ".join(terrain[1::2]))
    if line == "river":
        mp += "  hexsides: {river: [%s]}\n" % ", ".join(sides)
    text = """system: island-war
name: "%s"
rule: "%s"
description: |
%s
%sphasing: us
phase: combat
units:
%s
orders:
  attacks:
%s
dice: [1, 2, 3, 4, 5, 6]
expect:
  attacks:
%s
""" % (title, rule, "\n".join("  " + l for l in why), mp, "\n".join(units), "\n".join(attacks), "\n".join(expects))
    with open(name, "w") as f:
        f.write(text)


LINEWHY = {
    "rough": "Each defender is in a rough hex: the Rough line (rule 7.43).",
    "broken": "J1, J3 and J5 are in broken hexes, J2, J4 and J6 in towns: both use the\n  Broken/Town line (rule 7.43).",
    "river": "Each defender is in clear terrain, attacked only across a river hexside:\n  the River line (rule 7.42).",
    "clear": "Every hex is clear: the Clear line (rule 7.43).",
}
RULE = {"rough": "7.61, 7.43, 7.0, IW1", "broken": "7.61, 7.43, 7.0, IW1", "river": "7.61, 7.42, 7.43, IW1, IW3", "clear": "7.61, 7.43, 7.0, IW1"}
LINENAME = {"rough": "Rough", "broken": "Broken/Town", "river": "River", "clear": "Clear"}

for line, heads in HEADINGS.items():
    for i, h in enumerate(heads):
        col = i + 1
        vs = values(h)
        diffs = [vs[k % len(vs)] for k in range(6)]
        why = [
            "Six separate attacks, each infantry against infantry of defense %d, at the" % DEFENSE,
            "differentials of column %d of the %s line (heading %s), rolling 1 to 6:" % (col, LINENAME[line], h),
            "the six cells of that column, read from the CRT of 7.61 with every line",
            "starting at the table's first column (IW1). The differential is the",
            "attack strength less the defense strength (rule 7.0).",
        ] + LINEWHY[line].split("\n  ")
        if len(vs) > 1:
            why.insert(2, "dice 1, 3 and 5 at %+d, dice 2, 4 and 6 at %+d;" % (vs[0], vs[1]))
        write("7.61-crt-%s-col%02d.yaml" % (line, col),
              "CRT, %s line, column %d (%s), dice 1 to 6" % (LINENAME[line], col, h), RULE[line], line, diffs, [col] * 6, why)
    lo = values(heads[0])[0]
    below = [lo - 1, lo - 2, lo - 3, lo - 4, lo - 6, lo - 10]
    write("7.61-crt-%s-below.yaml" % line, "CRT, %s line, below its first heading (%s): column 1" % (LINENAME[line], heads[0]),
          RULE[line], line, below, [1] * 6,
          ["Differentials of %s down to %+d are read in the %s line's first column" % ("%+d" % (lo - 1), lo - 10, LINENAME[line]),
           "(rule 7.61: below the lowest heading, the lowest column is used), one",
           "attack for each die roll."] + LINEWHY[line].split("\n  "))
    above = [11, 12, 13, 15, 20, 14]
    write("7.61-crt-%s-above.yaml" % line, "CRT, %s line, beyond +10: the +10 column (%d)" % (LINENAME[line], len(heads)),
          RULE[line], line, above, [len(heads)] * 6,
          ["Differentials of +11 to +20 are read in the %s line's +10 column," % LINENAME[line],
           "its last, column %d (rule 7.61; IW1: a line has no columns beyond" % len(heads),
           "its +10), one attack for each die roll."] + LINEWHY[line].split("\n  "))
