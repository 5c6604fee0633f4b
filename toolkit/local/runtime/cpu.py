"""CPU-feature workaround for loading weights: llama.cpp's AMX buffers on hosts without AMX.

On CPUs that advertise AMX, llama.cpp's AMX weight buffers can crash with an illegal instruction
when the host has not enabled AMX (as in some virtual machines), so the engine loads weights
without llama.cpp's extra buffer types whenever the build includes AMX code.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import llama_cpp.llama_cpp as llama_lib

__all__ = ["build_has_amx", "plain_cpu_buffers"]


@contextlib.contextmanager
def plain_cpu_buffers() -> Iterator[None]:
    """Load weights without llama.cpp's extra (AMX / repacked) buffer types.

    On CPUs that advertise AMX, llama.cpp's AMX weight buffers crash with an illegal
    instruction when the host has not enabled AMX (as in some virtual machines).

    Yields:
        Nothing; models loaded inside the block use plain CPU buffers.
    """
    original = llama_lib.llama_model_default_params

    def params() -> llama_lib.llama_model_params:
        value = original()
        value.use_extra_bufts = False
        return value

    llama_lib.llama_model_default_params = params
    try:
        yield
    finally:
        llama_lib.llama_model_default_params = original


def build_has_amx() -> bool:
    """Whether the loaded llama.cpp library was built with AMX code.

    Returns:
        True when ``AMX_INT8`` is in llama.cpp's system info.
    """
    return b"AMX_INT8 = 1" in llama_lib.llama_print_system_info()
