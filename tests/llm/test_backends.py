"""LLM backends, the answer cache and conversation recording, without any network."""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path

import pytest

from genplan.errors import ConfigurationError
from genplan.llm import (
    BackendSpec,
    CachedModel,
    Completion,
    ConversationRecorder,
    FakeLanguageModel,
    LLMError,
    Message,
    RecordingModel,
    ReplayModel,
    SamplingSettings,
    make_model,
    read_recording,
)
from genplan.llm.files import FilesModel
from genplan.llm.manual import ManualModel
from genplan.llm.openai_backend import OpenAIModel

try:  # the openai SDK's HTTP client package (httpx2 in recent releases, httpx before)
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef]

HELLO = [Message("user", "Write a short summary of this domain in words.")]


def test_fake_model_scripts_answers_and_keeps_history() -> None:
    model = FakeLanguageModel(["one"])
    model.enqueue("two")
    assert model.complete(HELLO).text == "one"
    assert model.complete([*HELLO, Message("assistant", "one"), Message("user", "more")]).text == "two"
    assert len(model.history) == 2 and model.history[1][-1].content == "more"
    with pytest.raises(LLMError, match="ran out of answers after 2"):
        model.complete(HELLO)


class _Failing:
    name = "flaky"

    def __init__(self, answers: list[str], fail_after: int):
        self.inner = FakeLanguageModel(answers)
        self.fail_after = fail_after
        self.calls = 0

    def complete(self, messages, *, sample=0):
        self.calls += 1
        if self.calls > self.fail_after:
            raise KeyboardInterrupt  # the run is killed
        return self.inner.complete(messages, sample=sample)


def test_cache_resumes_a_killed_run_without_asking_again(tmp_path: Path) -> None:
    settings = SamplingSettings(model="m")
    prompts = [[Message("user", f"prompt {i}")] for i in range(3)]
    first = _Failing(["a0", "a1", "a2"], fail_after=2)
    cached = CachedModel(first, tmp_path, settings)
    assert [cached.complete(p).text for p in prompts[:2]] == ["a0", "a1"]
    with pytest.raises(KeyboardInterrupt):
        cached.complete(prompts[2])
    second_inner = FakeLanguageModel(["a2 again"])
    second = CachedModel(second_inner, tmp_path, settings)
    second_inner.name = "flaky"
    answers = [second.complete(p) for p in prompts]
    assert [a.text for a in answers] == ["a0", "a1", "a2 again"]
    assert [a.cached for a in answers] == [True, True, False]
    assert second_inner.history == [prompts[2]]


def test_cache_key_includes_sampling_settings(tmp_path: Path) -> None:
    model = FakeLanguageModel(["cold", "hot"])
    assert CachedModel(model, tmp_path, SamplingSettings(temperature=0.0)).complete(HELLO).text == "cold"
    assert CachedModel(model, tmp_path, SamplingSettings(temperature=1.0)).complete(HELLO).text == "hot"


def test_recording_and_replay_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "conversation.jsonl"
    recorder = ConversationRecorder(path)
    recorder.record(HELLO, Completion("a summary", usage_of(10, 3), "gpt-x"), backend="openai")
    second = [*HELLO, Message("assistant", "a summary"), Message("user", "strategy?")]
    recorder.record(second, Completion("a strategy", usage_of(20, 4), "gpt-x", cached=True), backend="openai")
    exchanges = read_recording(path)
    assert [e.response for e in exchanges] == ["a summary", "a strategy"]
    assert exchanges[1].cached and exchanges[0].usage.prompt_tokens == 10 and exchanges[0].model == "gpt-x"
    replay = ReplayModel(path)
    assert replay.complete(second).text == "a strategy"
    changed = [*HELLO, Message("assistant", "a summary"), Message("user", "what is the strategy?")]
    with pytest.raises(LLMError, match=r"message 2 \(user\) differs") as caught:
        replay.complete(changed)
    assert "strategy?" in str(caught.value)


def usage_of(prompt: int, completion: int):
    from genplan.llm import Usage

    return Usage(prompt, completion)


def test_malformed_recording_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"messages": [], "response": "x"}\nnot json\n')
    with pytest.raises(LLMError, match=r"bad\.jsonl:2"):
        read_recording(path)


def test_files_backend_writes_a_transcript_and_waits_for_the_answer(tmp_path: Path) -> None:
    model = FilesModel(tmp_path, timeout=10, poll_interval=0.05, model="someone")

    def answer() -> None:
        while not (tmp_path / "0001.prompt.md").exists():
            time.sleep(0.01)
        (tmp_path / "0001.response.md").write_text("the answer\n")

    thread = threading.Thread(target=answer)
    thread.start()
    completion = model.complete(HELLO)
    thread.join()
    assert completion.text == "the answer\n" and completion.model == "someone"
    transcript = (tmp_path / "0001.prompt.md").read_text()
    assert transcript == "## user\n\nWrite a short summary of this domain in words.\n"
    assert json.loads((tmp_path / "0001.prompt.json").read_text()) == [m.to_json() for m in HELLO]
    assert model.complete(HELLO).text == "the answer\n"  # answered prompts are reused
    assert not (tmp_path / "0002.prompt.md").exists()


def test_files_backend_says_which_file_it_waits_for(tmp_path: Path) -> None:
    """Issue 27 item 10: a wait of up to a day is never silent."""
    shown = io.StringIO()
    with pytest.raises(LLMError):
        FilesModel(tmp_path, timeout=0.2, poll_interval=0.05, output_stream=shown).complete(HELLO)
    assert shown.getvalue() == (
        f"genplan: waiting for the answer in {tmp_path / '0001.response.md'} "
        f"(the prompt is {tmp_path / '0001.prompt.md'}; waiting up to 0.2 s)\n"
    )
    (tmp_path / "0001.response.md").write_text("the answer\n")
    answered = io.StringIO()
    FilesModel(tmp_path, timeout=86_400, poll_interval=0.05, output_stream=answered).complete(HELLO)
    assert answered.getvalue() == ""  # answered already: nothing to wait for


def test_files_backend_times_out_clearly(tmp_path: Path) -> None:
    with pytest.raises(LLMError, match="no answer in"):
        FilesModel(tmp_path, timeout=0.2, poll_interval=0.05).complete(HELLO)
    assert (tmp_path / "0001.prompt.md").exists()


def test_manual_backend_reads_until_the_end_marker() -> None:
    shown = io.StringIO()
    model = ManualModel(io.StringIO("line one\nline two\nEND\nignored\n"), shown)
    assert model.complete(HELLO).text == "line one\nline two\n"
    assert "Write a short summary" in shown.getvalue() and "END" in shown.getvalue()
    with pytest.raises(LLMError, match="no answer was pasted"):
        ManualModel(io.StringIO(""), io.StringIO()).complete(HELLO)


def _chat_response(text: str) -> dict:
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "served-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9},
    }


def test_openai_backend_retries_429_then_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(json.loads(request.content))
        if len(calls) == 1:
            return httpx.Response(429, json={"error": {"message": "slow down"}}, headers={"retry-after": "0"})
        return httpx.Response(200, json=_chat_response("hello"))

    client = httpx.Client(transport=httpx.MockTransport(handler))
    settings = SamplingSettings(model="qwen", temperature=0.2, seed=7, max_tokens=100)
    model = OpenAIModel(settings, base_url="http://localhost:8000/v1", http_client=client, max_retries=2)
    completion = model.complete(HELLO)
    assert (
        completion.text == "hello"
        and completion.usage.prompt_tokens == 7
        and completion.model == "served-model"
    )
    assert len(calls) == 2
    assert calls[1]["model"] == "qwen" and calls[1]["seed"] == 7 and calls[1]["max_tokens"] == 100
    assert calls[1]["messages"] == [m.to_json() for m in HELLO]


def test_openai_backend_without_key_or_endpoint_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(LLMError, match="OPENAI_API_KEY") as caught:
        OpenAIModel(SamplingSettings())
    assert "--base-url" in str(caught.value) and "files:DIR" in str(caught.value)


def test_registry(tmp_path: Path) -> None:
    assert isinstance(
        make_model(BackendSpec.parse(f"files:{tmp_path}"), cache_dir=tmp_path / "c"), CachedModel
    )
    assert isinstance(make_model(BackendSpec.parse("manual")), ManualModel)
    with pytest.raises(ConfigurationError, match="replay:PATH"):
        BackendSpec.parse("claude")


def test_an_empty_answer_file_is_an_error_not_a_wait_until_the_time_out(tmp_path: Path) -> None:
    model = FilesModel(tmp_path, timeout=60, poll_interval=0.05, empty_grace=0.3)
    (tmp_path / "0001.response.md").write_text("")
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"0001\.response\.md is empty; write the answer into it"):
        model.complete(HELLO)
    assert time.monotonic() - started < 10


def test_an_answer_file_that_is_not_utf8_is_an_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "0001.response.md").write_bytes("line one\nna\xefve answer\n".encode("latin-1"))
    with pytest.raises(LLMError, match=r"0001\.response\.md:2: the answer is not UTF-8 text"):
        FilesModel(tmp_path, timeout=5, poll_interval=0.05).complete(HELLO)


def test_a_recording_that_is_not_utf8_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "conversation.jsonl"
    path.write_bytes(b'{"messages": [], "response": "x"}\n{"response": "\xff"}\n')
    with pytest.raises(LLMError, match=r"conversation\.jsonl:2: the recording is not UTF-8 text"):
        read_recording(path)


def test_openai_backend_connection_error_names_the_url() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    client = httpx.Client(transport=httpx.MockTransport(handler))
    model = OpenAIModel(
        SamplingSettings(), base_url="http://localhost:11434/v1", http_client=client, max_retries=0
    )
    with pytest.raises(LLMError, match=r"cannot reach the model server at http://localhost:11434/v1"):
        model.complete(HELLO)


def test_an_unreachable_server_fails_at_the_first_attempt_not_after_retries() -> None:
    """Issue 27 item 10: not 15 s of silent retries against a --base-url nothing listens on."""
    attempts: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        attempts.append(str(request.url))
        raise httpx.ConnectError("connection refused", request=request)

    client = httpx.Client(transport=httpx.MockTransport(handler))
    model = OpenAIModel(
        SamplingSettings(), base_url="http://localhost:9/v1", http_client=client, max_retries=5
    )
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"cannot reach the model server at http://localhost:9/v1"):
        model.complete(HELLO)
    assert len(attempts) == 1 and time.monotonic() - started < 5


def test_a_server_reached_but_busy_is_still_retried_before_its_first_answer() -> None:
    statuses = [503, 200]

    def handler(request: httpx.Request) -> httpx.Response:
        status = statuses.pop(0)
        if status != 200:
            return httpx.Response(
                status, json={"error": {"message": "loading"}}, headers={"retry-after": "0"}
            )
        return httpx.Response(200, json=_chat_response("hello"))

    client = httpx.Client(transport=httpx.MockTransport(handler))
    model = OpenAIModel(
        SamplingSettings(), base_url="http://localhost:8000/v1", http_client=client, max_retries=2
    )
    assert model.complete(HELLO).text == "hello" and statuses == []


def test_samples_of_one_request_are_cached_recorded_and_replayed_apart(tmp_path: Path) -> None:
    inner = FakeLanguageModel(["first", "second"])
    recorder = ConversationRecorder(tmp_path / "conversation.jsonl")
    model = RecordingModel(CachedModel(inner, tmp_path / "cache", SamplingSettings()), recorder, "fake")
    assert [model.complete(HELLO, sample=k).text for k in (0, 1)] == ["first", "second"]
    assert [model.complete(HELLO, sample=k).text for k in (0, 1)] == ["first", "second"]  # from the cache
    assert inner.samples == [0, 1] and model.calls == 4
    assert [e.sample for e in read_recording(tmp_path / "conversation.jsonl")] == [0, 1, 0, 1]
    replay = ReplayModel(tmp_path / "conversation.jsonl")
    assert replay.complete(HELLO, sample=1).text == "second"
    with pytest.raises(LLMError, match="not sample 2"):
        replay.complete(HELLO, sample=2)


def test_recording_model_totals_tokens_until_an_answer_has_none(tmp_path: Path) -> None:
    recorder = ConversationRecorder(tmp_path / "conversation.jsonl")
    model = RecordingModel(FakeLanguageModel(["one two"]), recorder, "fake")
    model.complete(HELLO)
    assert model.prompt_tokens == 9 and model.completion_tokens == 2
    files = FilesModel(tmp_path / "prompts", timeout=0.5, poll_interval=0.05)
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "0001.response.md").write_text("answer\n")
    counted = RecordingModel(files, recorder, "files")
    counted.complete(HELLO)
    assert counted.prompt_tokens is None and counted.completion_tokens is None and recorder.count == 2


def test_files_backend_gives_each_sample_its_own_prompt(tmp_path: Path) -> None:
    for stem in ("0001", "0002"):
        (tmp_path / f"{stem}.response.md").write_text(f"answer {stem}\n")
    model = FilesModel(tmp_path, timeout=1, poll_interval=0.05)
    assert model.complete(HELLO).text == "answer 0001\n"
    assert model.complete(HELLO, sample=1).text == "answer 0002\n"
    assert json.loads((tmp_path / "0002.prompt.json").read_text())["sample"] == 1
    assert model.complete(HELLO, sample=1).text == "answer 0002\n"


def test_openai_backend_sends_seed_plus_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(json.loads(request.content))
        return httpx.Response(200, json=_chat_response("hello"))

    client = httpx.Client(transport=httpx.MockTransport(handler))
    model = OpenAIModel(SamplingSettings(seed=7), base_url="http://localhost:8000/v1", http_client=client)
    model.complete(HELLO, sample=3)
    assert calls[0]["seed"] == 10


def test_files_backend_processes_sharing_a_directory_never_share_a_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two grid workers: the second counted the prompts before the first wrote its own.
    first = FilesModel(tmp_path, timeout=0.2, poll_interval=0.05)
    second = FilesModel(tmp_path, timeout=0.2, poll_interval=0.05)
    monkeypatch.setattr(second, "_next_number", lambda: 1)
    other = [Message("user", "Another domain, another question.")]
    for model, messages in ((first, HELLO), (second, other)):
        with pytest.raises(LLMError):
            model.complete(messages)
    assert json.loads((tmp_path / "0001.prompt.json").read_text()) == [m.to_json() for m in HELLO]
    assert json.loads((tmp_path / "0002.prompt.json").read_text()) == [m.to_json() for m in other]
    assert "Another domain" in (tmp_path / "0002.prompt.md").read_text()


def test_a_usage_sum_is_unknown_where_either_count_is() -> None:
    from genplan.llm import Usage

    assert Usage(3, 4).plus(Usage(10, 20)) == Usage(13, 24)
    assert Usage(3, None).plus(Usage(10, 20)) == Usage(13, None)
    assert Usage(3, 4).plus(Usage(None, 20)) == Usage(None, 24)
