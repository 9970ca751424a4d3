"""The review queue and the jobs page in a real browser, with the arq workers running the jobs."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest
from playwright.async_api import Browser, Page, expect

from memoryd.adapters.onnx_embedder import OnnxMiniLMEmbedder
from memoryd.core.models import Actor, MemoryDraft
from memoryd.rpc.client import ProfileServiceStub, bearer, ppb
from tests.console.conftest import Stack, sign_in
from tests.jobs.conftest import PROFILE_REPLY, running

pytestmark = pytest.mark.timeout(180)


async def _until(page: Page, url: str, selector: str, seconds: float = 60) -> None:
    """Reload ``url`` until ``selector`` is on it (a job the workers are running)."""
    for _ in range(int(seconds / 0.5)):
        await page.goto(url)
        if await page.locator(selector).count():
            return
        await asyncio.sleep(0.5)
    raise AssertionError(f"{selector} never appeared on {url}")


async def test_review_apply_a_chosen_finding_then_undo_it(
    browser: Browser, stack: Stack, shots: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    assert stack.daemon.app is not None
    twins = [MemoryDraft("The VPN needs a hardware key since March") for _ in range(2)]
    write = stack.daemon.app.memory.memorize.memorize_batch(Actor("acme", "a3"), twins, skip_deduplication=True)
    stack.daemon.run(write)
    rules_only = stack.settings.model_copy(
        update={"provider": stack.settings.provider.model_copy(update={"extraction_model": ""})}
    )
    page = await sign_in(browser, stack, "operator")
    async with running(rules_only, onnx_embedder):
        await page.goto(f"{stack.url}/reviews?agent=a3")
        await page.click("text=Review a3's archive now")
        job_url = page.url
        assert "/jobs/review" in job_url
        await _until(page, job_url, "a:has-text('its findings')")
    await page.click("a:has-text('its findings')")
    duplicate = page.locator("tr[data-status='proposed']", has_text="duplicate")
    await expect(duplicate).to_have_count(1)
    await page.screenshot(path=shots / "review.png", full_page=True)
    # nothing chosen: refused, nothing applied
    await page.click("button[value=apply]")
    await expect(page.locator(".error")).to_contain_text("choose at least one finding")
    await page.go_back()
    await page.locator("tr", has_text="duplicate").locator("input[type=checkbox]").check()
    await page.click("button[value=apply]")
    await expect(page.locator(".note")).to_contain_text("apply")
    applied = page.locator("tr[data-status='applied']", has_text="duplicate")
    await expect(applied).to_have_count(1)
    await expect(applied.locator(".memory .status", has_text="superseded")).to_have_count(1)
    await applied.locator("input[type=checkbox]").check()
    await page.click("button[value=undo]")
    await expect(page.locator(".note")).to_contain_text("undo")
    row = page.locator("tr", has_text="duplicate")
    await expect(row.locator(".memory .status", has_text="active")).to_have_count(2)  # both memories active again


async def test_a_failed_job_is_found_with_its_error_and_retried(
    browser: Browser, stack: Stack, shots: Path, onnx_embedder: OnnxMiniLMEmbedder
) -> None:
    assert stack.daemon.app is not None
    stack.daemon.run(stack.daemon.app.memory.memorize.memorize(Actor("acme", "a4"), MemoryDraft("a4 likes green tea")))
    answer = {"now": '{"profile": 42}'}  # not a profile: the job fails for good
    stack.provider.answer_with(lambda _system, _user: answer["now"])
    with grpc.insecure_channel(f"127.0.0.1:{stack.daemon.port}") as channel:
        request = ppb.RegenerateProfileRequest(agent_id="a4")
        as_operator = (bearer(stack.tokens["operator"]),)
        job_id = ProfileServiceStub(channel).RegenerateProfile(request, metadata=as_operator).job_id
    page = await sign_in(browser, stack, "operator")
    async with running(stack.settings, onnx_embedder):
        await _until(page, f"{stack.url}/jobs?state=failed", f"a:has-text('{job_id}')")
        failed = page.locator("tr", has_text=job_id)
        await expect(failed.locator(".error-text")).to_contain_text("profile")
        await page.screenshot(path=shots / "jobs.png", full_page=True)
        await failed.locator("a").click()
        events = page.locator("table.job-events tbody tr")  # each attempt and its error, in order
        await expect(events.first).to_have_attribute("data-state", "queued")
        await expect(events.last).to_have_attribute("data-state", "failed")
        attempts = page.locator("table.job-events tr[data-state='running']")
        await expect(attempts).to_have_count(1)  # no retry: the answer is no profile
        answer["now"] = PROFILE_REPLY
        await page.click("button:has-text('Retry this job')")
        await expect(page.locator(".note")).to_contain_text("retried")
        await _until(page, page.url.split("?")[0], "dd.state[data-state='succeeded']")
    await expect(page.locator("dd")).to_contain_text(["run 2"])
    # the two regenerations' model calls and tokens, on the overview (how much did the tenant spend?)
    await _until(page, f"{stack.url}/", "tr[data-model='fake-model']")
    spent = page.locator("tr[data-model='fake-model'] td.num")
    await expect(spent.first).to_have_text("2")
    await page.screenshot(path=shots / "overview.png", full_page=True)
