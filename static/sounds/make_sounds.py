"""Makes the table's sounds (static/sounds/*.wav) from sine tones and seeded noise.

Run ``python static/sounds/make_sounds.py`` to write them again; the output is the
same on every run (the noise has a fixed seed). Each file is mono 16-bit PCM at
16 kHz and under 30 KB. Nothing here is recorded or taken from elsewhere.
"""

from __future__ import annotations

import math
import random
import struct
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 16000
HERE = Path(__file__).resolve().parent


def envelope(t: float, attack: float, decay: float) -> float:
    """A quick rise, then an exponential fall with time constant ``decay``."""
    if t < attack:
        return t / attack
    return math.exp(-(t - attack) / decay)


def render(seconds: float, sample: Callable[[float], float]) -> bytes:
    frames = bytearray()
    n = int(seconds * RATE)
    for i in range(n):
        t = i / RATE
        fade = min(1.0, (n - i) / (0.005 * RATE))  # no click at the end
        v = max(-1.0, min(1.0, sample(t) * fade))
        frames += struct.pack("<h", int(v * 32767))
    return bytes(frames)


def clack(seed: int, pitch: float, gain: float) -> Callable[[float], float]:
    """A tile on wood: a burst of noise and a damped low tone."""
    rng = random.Random(seed)
    last = [0.0]

    def sample(t: float) -> float:
        noise = rng.uniform(-1, 1)
        last[0] = 0.6 * last[0] + 0.4 * noise  # a little low-passed
        body = math.sin(2 * math.pi * pitch * t) * envelope(t, 0.002, 0.03)
        return gain * (0.55 * last[0] * envelope(t, 0.001, 0.008) + 0.6 * body)

    return sample


def chime(notes: list[tuple[float, float]], gain: float) -> Callable[[float], float]:
    """Notes (start second, frequency) each ringing out, with a soft overtone."""

    def sample(t: float) -> float:
        v = 0.0
        for start, f in notes:
            if t >= start:
                u = t - start
                e = envelope(u, 0.006, 0.12)
                v += e * (math.sin(2 * math.pi * f * u) + 0.25 * math.sin(4 * math.pi * f * u))
        return gain * v

    return sample


def tick(t: float) -> float:
    return 0.5 * math.sin(2 * math.pi * 1500 * t) * envelope(t, 0.001, 0.01)


SOUNDS: dict[str, tuple[float, Callable[[float], float]]] = {
    "draw": (0.12, clack(1, 330.0, 0.7)),
    "discard": (0.16, clack(2, 190.0, 0.9)),
    "turn": (0.45, chime([(0.0, 659.25), (0.12, 987.77)], 0.35)),
    "tick": (0.06, tick),
    "end": (0.8, chime([(0.0, 523.25), (0.13, 659.25), (0.26, 783.99), (0.39, 1046.5)], 0.25)),
}


def main() -> None:
    for name, (seconds, sample) in SOUNDS.items():
        with wave.open(str(HERE / f"{name}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(render(seconds, sample))


if __name__ == "__main__":
    main()
