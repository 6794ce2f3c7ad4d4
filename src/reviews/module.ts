import type { DomainModule } from '../core.ts';
import { reviewMigrations } from './migrations.ts';
import { reviewRoutes } from './routes.ts';
import { type ReviewsService, createReviewsService } from './service.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    reviews: ReviewsService;
  }
}

/** Human decisions on checks of every kind: the API route here, the dashboard through the service. */
export const reviewsModule: DomainModule<ReviewsService> = {
  name: 'reviews',
  migrations: reviewMigrations,
  setup: async (platform) => createReviewsService(platform),
  routes: reviewRoutes,
};
