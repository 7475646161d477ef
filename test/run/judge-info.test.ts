import { describe, expect, it } from '@jest/globals';
import { graderJudgeInfo } from '../../src/run/job.js';

describe("the graders' judge in the run log", () => {
  it('is the served model unless judge.model or judge.base-url names another', () => {
    expect(graderJudgeInfo('qwen-7b', 'http://127.0.0.1:8000/v1', undefined)).toEqual({ model: 'qwen-7b', servedModel: true });
    expect(graderJudgeInfo('qwen-7b', 'http://127.0.0.1:8000/v1', { model: 'qwen-72b' })).toEqual({
      model: 'qwen-72b',
      servedModel: false,
    });
    expect(graderJudgeInfo('qwen-7b', 'http://127.0.0.1:8000/v1', { model: 'gpt-4o', baseUrl: 'https://api.example.com/v1' })).toEqual({
      model: 'gpt-4o',
      baseUrl: 'https://api.example.com/v1',
      servedModel: false,
    });
    expect(graderJudgeInfo('qwen-7b', 'http://127.0.0.1:8000/v1', { model: 'qwen-7b' }).servedModel).toBe(true);
  });
});
