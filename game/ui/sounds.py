"""Drop and win sounds, synthesised with numpy; silent when there is no audio device."""

from __future__ import annotations

import numpy as np
import pygame

RATE = 44100


def _envelope(n: int, attack: float, decay: float) -> np.ndarray:
    t = np.arange(n) / RATE
    env = np.exp(-t / decay)
    a = max(1, int(attack * RATE))
    env[:a] *= np.linspace(0, 1, a)
    return env


def _to_sound(wave: np.ndarray, volume: float) -> pygame.mixer.Sound:
    wave = np.clip(wave * volume, -1, 1)
    pcm = (wave * 32767).astype(np.int16)
    init = pygame.mixer.get_init()
    channels = init[2] if init is not None else 2
    data = np.repeat(pcm[:, None], channels, axis=1) if channels > 1 else pcm
    return pygame.mixer.Sound(buffer=np.ascontiguousarray(data).tobytes())


def drop_wave(pitch: float = 1.0) -> np.ndarray:
    """A short wooden 'clack': a damped low tone plus a click of filtered noise."""
    n = int(0.16 * RATE)
    t = np.arange(n) / RATE
    rng = np.random.default_rng(7)
    tone = np.sin(2 * np.pi * 190 * pitch * t) * _envelope(n, 0.002, 0.045)
    tone += 0.5 * np.sin(2 * np.pi * 420 * pitch * t) * _envelope(n, 0.001, 0.02)
    noise = rng.standard_normal(n) * _envelope(n, 0.0005, 0.006)
    noise = np.convolve(noise, np.ones(6) / 6, mode="same")
    result: np.ndarray = 0.7 * tone + 0.5 * noise
    return result


def chord_wave(freqs: list[float], step: float, length: float) -> np.ndarray:
    """Notes started ``step`` seconds apart, each a soft bell (sine plus an octave)."""
    n = int((step * len(freqs) + length) * RATE)
    out = np.zeros(n)
    for i, f in enumerate(freqs):
        start = int(i * step * RATE)
        m = n - start
        t = np.arange(m) / RATE
        note = (np.sin(2 * np.pi * f * t) + 0.3 * np.sin(4 * np.pi * f * t)) * _envelope(m, 0.01, length / 3)
        out[start:] += note
    result: np.ndarray = out / max(1.0, np.abs(out).max())
    return result


class Sounds:
    """``play(name)`` for "drop", "win", "draw"; does nothing when muted or without audio."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.available = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._drops: list[pygame.mixer.Sound] = []
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=512)
            self._drops = [_to_sound(drop_wave(1.0 + 0.04 * i), 0.55) for i in range(6)]
            self._sounds["win"] = _to_sound(chord_wave([523.25, 659.25, 783.99, 1046.5], 0.11, 0.7), 0.4)
            self._sounds["draw"] = _to_sound(chord_wave([392.0, 329.63], 0.16, 0.5), 0.35)
            self.available = True
        except (pygame.error, ValueError, OSError):
            self.available = False

    def play(self, name: str, variant: int = 0) -> None:
        if not (self.enabled and self.available):
            return
        try:
            if name == "drop" and self._drops:
                self._drops[variant % len(self._drops)].play()
            elif name in self._sounds:
                self._sounds[name].play()
        except pygame.error:
            self.available = False

    def close(self) -> None:
        try:
            if pygame.mixer.get_init():
                pygame.mixer.quit()
        except pygame.error:
            pass
