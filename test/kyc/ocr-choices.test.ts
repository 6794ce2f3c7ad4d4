// The LSTM's candidates per glyph, from tesseract's hOCR (ocr.ts lstmChoices): the shape tesseract.js 7 gives with
// lstm_choice_mode 2 and hocr_char_boxes 1 on an OCR-B MRZ line.
import { describe, expect, it } from 'vitest';
import { lstmChoices } from '../../src/kyc/ocr.ts';

const HOCR = `
    <span class='ocrx_word' id='word_1_2' title='bbox 50 160 1103 191; x_wconf 0'>
     <span class='ocrx_cinfo' title='x_bboxes 50 162 67 191; x_conf 98.81031'>0</span>
      <span class='ocrx_cinfo' id='lstm_choices_1_2_1'>
       <span class='ocrx_cinfo' id='choice_1_2_1' title='x_confs 92.071732'>0</span>
       <span class='ocrx_cinfo' id='choice_1_2_2' title='x_confs 52.5'>O</span>
       <span class='ocrx_cinfo' id='choice_1_2_3' title='x_confs 0'>D</span>
      </span>
     <span class='ocrx_cinfo' title='x_bboxes 78 162 98 188; x_conf 96.741608'>&lt;</span>
      <span class='ocrx_cinfo' id='lstm_choices_1_2_2'>
       <span class='ocrx_cinfo' id='choice_1_2_4' title='x_confs 90.407173'>&lt;</span>
       <span class='ocrx_cinfo' id='choice_1_2_5' title='x_confs 36.965504'>K</span>
      </span>
     <span class='ocrx_cinfo' title='x_bboxes 107 161 128 191; x_conf 91'>T</span>
    </span>`;

describe("the LSTM's candidates for each glyph", () => {
  it('reads every glyph\'s candidates by its box, fillers unescaped, and nothing for a glyph without candidates', () => {
    const choices = lstmChoices(HOCR);
    expect(choices.get('50 162 67 191')).toEqual([
      { text: '0', confidence: 92.071732 },
      { text: 'O', confidence: 52.5 },
      { text: 'D', confidence: 0 },
    ]);
    expect(choices.get('78 162 98 188')).toEqual([
      { text: '<', confidence: 90.407173 },
      { text: 'K', confidence: 36.965504 },
    ]);
    expect(choices.has('107 161 128 191')).toBe(false);
    expect(choices.size).toBe(2);
  });
});
