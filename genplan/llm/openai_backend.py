"""The ``openai`` backend: the OpenAI API or any OpenAI-compatible server.

vLLM, Ollama, llama.cpp server and LM Studio all speak this API; point ``--base-url`` at them.
Retries with backoff on time-outs, 429 and 5xx are the SDK's own (``max_retries``), except
before the server has answered once: a server that cannot be reached at all (connection refused,
unknown host) fails at the first attempt, not after seconds of silent retries.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from genplan.llm.base import Completion, LLMError, Message, SamplingSettings, Usage

NO_ENDPOINT_HELP = (
    "no OpenAI API key or endpoint is set. Export OPENAI_API_KEY, or pass --base-url for an OpenAI-compatible "
    "server (vLLM, Ollama, llama.cpp, LM Studio), or use --llm files:DIR or --llm manual"
)


class OpenAIModel:
    """Chat completions through the ``openai`` SDK.

    Args:
        settings: model, temperature, seed, max tokens, request time-out (seconds).
        base_url: an OpenAI-compatible endpoint; defaults to ``OPENAI_BASE_URL`` or OpenAI's.
        api_key: defaults to ``OPENAI_API_KEY`` or ``GENPLAN_API_KEY``; a local server needs none.
        max_retries: retries with exponential backoff on time-outs, 429 and 5xx (a server never
            reached is not retried: see the module docstring).
        http_client: an ``httpx.Client`` to use (tests pass one with a mock transport).

    Raises:
        LLMError: neither a key nor an endpoint is set.
    """

    name = "openai"

    def __init__(
        self,
        settings: SamplingSettings,
        base_url: str | None = None,
        api_key: str | None = None,
        max_retries: int = 5,
        http_client: Any = None,
    ):
        import openai

        base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        api_key = api_key or os.environ.get("OPENAI_API_KEY") or os.environ.get("GENPLAN_API_KEY")
        if not api_key:
            if not base_url:
                raise LLMError(NO_ENDPOINT_HELP)
            api_key = "not-needed"  # local servers accept any key
        self.settings = settings
        self._openai = openai
        self.client = openai.OpenAI(
            api_key=api_key,
            base_url=base_url,
            timeout=settings.request_timeout,
            max_retries=max_retries,
            http_client=http_client,
        )
        self._reached = False

    def complete(self, messages: Sequence[Message], *, sample: int = 0) -> Completion:
        """One chat completion; sample ``k`` is sent with seed ``seed + k`` (at temperature 0 a
        server may still return the same text for every sample: raise ``--temperature``).

        Raises:
            LLMError: the request failed after the retries, naming the server's URL and its reason.
        """
        arguments: dict[str, Any] = {
            "model": self.settings.model,
            "messages": [m.to_json() for m in messages],
            "temperature": self.settings.temperature,
        }
        if self.settings.seed is not None:
            arguments["seed"] = self.settings.seed + sample
        if self.settings.max_tokens is not None:
            arguments["max_tokens"] = self.settings.max_tokens
        try:
            response = self._create(arguments)
        except self._openai.APIConnectionError as error:
            raise LLMError(
                f"cannot reach the model server at {self.client.base_url} ({error}); is it running, and is "
                "--base-url right?"
            ) from error
        except self._openai.APIError as error:
            raise LLMError(f"the model request to {self.client.base_url} failed: {error}") from error
        self._reached = True
        choice = response.choices[0]
        usage = response.usage
        return Completion(
            choice.message.content or "",
            Usage(usage.prompt_tokens if usage else None, usage.completion_tokens if usage else None),
            response.model or self.settings.model,
        )

    def _create(self, arguments: dict[str, Any]) -> Any:
        """The SDK's request, without retries until the server has answered once: a connection
        that cannot be made is reported at once; a time-out, 429 or 5xx is retried as usual."""
        if self._reached:
            return self.client.chat.completions.create(**arguments)
        try:
            return self.client.with_options(max_retries=0).chat.completions.create(**arguments)
        except self._openai.APITimeoutError:
            pass  # reached, but slow (a local server loading its model): retry
        except self._openai.APIStatusError as error:
            if error.status_code != 429 and error.status_code < 500:
                raise
        return self.client.chat.completions.create(**arguments)
