"""Generate memoryd/commands/bench/data/pii_planted.json: identifiers planted in realistic sentences, and decoys.

Deterministic (seeded). Each item: ``text``, ``planted`` (list of {type, value}); decoys carry an
empty list and hold dates, times, prices, versions, years, counts and codes that must stay.
"""

from __future__ import annotations

import json
import random
import string
import sys
from pathlib import Path

rng = random.Random(20261130)
NAMES = ["alice", "bruno", "chen.wei", "dana_k", "emeka", "farah", "gus", "hana.sato", "ivan", "jo+news"]
DOMAINS = ["example.com", "mail.example.org", "acme.io", "uni-example.edu", "example.co.uk"]


def luhn_complete(prefix: str, length: int) -> str:
    body = prefix + "".join(rng.choice(string.digits) for _ in range(length - len(prefix) - 1))
    for check in string.digits:
        digits = body + check
        total = 0
        for i, ch in enumerate(reversed(digits)):
            d = int(ch)
            if i % 2:
                d = d * 2 - 9 if d > 4 else d * 2
            total += d
        if total % 10 == 0:
            return digits
    raise AssertionError


def group(number: str, sizes: list[int], sep: str) -> str:
    out, i = [], 0
    for s in sizes:
        out.append(number[i : i + s])
        i += s
    return sep.join(out)


def iban(country: str, bban: str) -> str:
    moved = bban + country + "00"
    check = 98 - int("".join(str(int(c, 36)) for c in moved)) % 97
    raw = f"{country}{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4)) if rng.random() < 0.6 else raw


def secret() -> str:
    alnum = string.ascii_letters + string.digits
    kinds = [
        lambda: "sk-" + "".join(rng.choice(alnum) for _ in range(40)),
        lambda: "ghp_" + "".join(rng.choice(alnum) for _ in range(36)),
        lambda: "AKIA" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(16)),
        lambda: "xoxb-" + "-".join("".join(rng.choice(string.digits) for _ in range(11)) for _ in range(2)),
        lambda: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + "".join(rng.choice(alnum) for _ in range(30)),
    ]
    return rng.choice(kinds)()


def phone() -> str:
    forms = [
        lambda: f"+1 {rng.randint(201, 989)}-555-{rng.randint(100, 9999):04d}",
        lambda: f"({rng.randint(201, 989)}) 555-{rng.randint(1000, 9999)}",
        lambda: f"+44 20 {rng.randint(1000, 9999)} {rng.randint(1000, 9999)}",
        lambda: f"+49{rng.randint(1500000000, 1799999999)}",
        lambda: f"06 {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)}",
        lambda: f"{rng.randint(201, 989)}.555.{rng.randint(1000, 9999)}",
        lambda: f"+33 6 {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)}",
    ]
    return rng.choice(forms)()


TEMPLATES = {
    "email": [
        "You can reach {n} at {v} any weekday.",
        "Send the signed contract to {v} before Friday.",
        "Her new work address is {v}, the old one bounces.",
    ],
    "phone": [
        "Call the front desk on {v} if the door is locked.",
        "His mobile number is {v}.",
        "The clinic's number changed to {v} last month.",
    ],
    "card": [
        "The customer paid with card {v} and wants a refund.",
        "Charge the deposit to {v}, expiry 09/27.",
        "Card ending in the number {v} was declined twice.",
    ],
    "iban": [
        "Wire the refund to {v} at the end of the month.",
        "Her salary account is {v}.",
        "Update the supplier's bank details to {v}.",
    ],
    "id": [
        "Her customer number is {v} in the billing system.",
        "The passport number on file is {v}.",
        "Ticket {v} tracks the outage.",
    ],
    "secret": [
        "The staging API key is {v}, rotate it after the demo.",
        "He pasted the token {v} into the chat.",
        "Use {v} for the deploy script.",
    ],
}
DECOYS = [
    "The standup moved to 2024-03-15 at 10:30.",
    "She was born on 15/03/1987 in Porto.",
    "The laptop costs $1,299.99 with tax.",
    "We upgraded Python to 3.11.7 yesterday.",
    "He lived in Lisbon from 1998 to 2004.",
    "The order has 250 units in 12 boxes.",
    "Room 1204 is on the twelfth floor.",
    "The office postcode is 94107.",
    "Revenue grew 12.5% to 4,500,000 euros.",
    "The meeting is at 3:45 pm, about 90 minutes.",
    "Flight LH 1234 leaves at 07:05 from gate B22.",
    "Chapter 11 covers pages 200-245.",
    "The recipe needs 2 cups of flour and 3 eggs.",
    "Score was 21-17 after overtime.",
    "Version 2.14.4 fixed the crash in build 5123.",
    "The warehouse holds 1,250,000 items.",
    "Population was 8 336 817 in the last census.",
    "Set the thermostat to 21.5 degrees.",
    "Bus 42 runs every 15 minutes until 23:30.",
    "Her ISBN list starts with 978-3-16.",
    "The invoice total is 12 345,67 EUR.",
    "Lap times were 1:02.345 and 1:01.998.",
    "Call back between 9 and 5 on weekdays.",
    "The contract runs 2025-01-01 to 2027-12-31.",
    "Coordinates 38.7223, -9.1393 mark the cafe.",
    "She ran 10 km in 48 minutes on 3 June.",
    "The book's ISBN is 9780306406157, second edition.",
    "The years 2019 2020 2021 were hard on the shop.",
    "Scores by round: 10 12 14 11 9.",
    "Pick rows 12-14-16 of the seating plan.",
]


def main(out: Path) -> None:
    items = []
    for kind, templates in TEMPLATES.items():
        for _ in range(25):
            if kind == "email":
                name = rng.choice(NAMES)
                value = f"{name}@{rng.choice(DOMAINS)}"
            elif kind == "phone":
                name, value = "", phone()
            elif kind == "card":
                number = luhn_complete(rng.choice(["4", "51", "37", "6011"]), 15 if rng.random() < 0.2 else 16)
                value = group(number, [4, 6, 5] if len(number) == 15 else [4, 4, 4, 4], rng.choice([" ", "-", ""]))
            elif kind == "iban":
                country, bban = rng.choice(
                    [
                        ("DE", "".join(rng.choice(string.digits) for _ in range(18))),
                        ("GB", "NWBK" + "".join(rng.choice(string.digits) for _ in range(14))),
                        ("FR", "".join(rng.choice(string.digits) for _ in range(23))),
                        ("NL", "ABNA" + "".join(rng.choice(string.digits) for _ in range(10))),
                    ]
                )
                value = iban(country, bban)
            elif kind == "id":
                value = str(rng.randint(10**8, 10**12 - 1))
            else:
                value = secret()
            text = rng.choice(templates).format(n=(name or "them").split("@")[0].title(), v=value)
            items.append({"text": text, "planted": [{"type": kind, "value": value}]})
    items += [{"text": t, "planted": []} for t in DECOYS]
    rng.shuffle(items)
    out.write_text(json.dumps({"items": items}, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("memoryd/commands/bench/data/pii_planted.json"))
