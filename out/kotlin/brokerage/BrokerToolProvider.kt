// Generated once by cetpgen from specs/brokerage/provider.yaml. This file is yours to edit: cetpgen never overwrites it.

package com.example.broker.cetp

import android.app.PendingIntent
import dev.clawseed.sdk.android.cetp.CetpProviderRequest
import java.math.BigDecimal
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject

/**
 * BrokerToolProvider is the app's CETP Provider: it fills in the hooks of the
 * generated [BrokerToolProviderBase]. Register it in the manifest (see the generated
 * fragment) and replace every TODO.
 */
class BrokerToolProvider : BrokerToolProviderBase() {
    override val durableStore: BrokerToolProviderStore
        get() = TODO("return one BrokerToolProviderStore on the app's SQLiteDatabase, the one the tools write to")

    override fun confirmationIntent(request: CetpProviderRequest, resolutionId: String): PendingIntent =
        TODO("return an immutable PendingIntent to the app's confirmation Activity, carrying resolutionId")

    override fun cancelOrder(input: CancelOrderInput, request: CetpProviderRequest): BrokerToolProviderReply<CancelOrderOutput> =
        TODO("implement the tool cancel_order")

    override fun exportStatements(input: ExportStatementsInput, request: CetpProviderRequest): BrokerToolProviderReply<ExportStatementsOutput> =
        TODO("implement the tool export_statements")

    override fun getPortfolio(input: GetPortfolioInput, request: CetpProviderRequest): BrokerToolProviderReply<GetPortfolioOutput> =
        TODO("implement the tool get_portfolio")

    override fun getQuote(input: GetQuoteInput, request: CetpProviderRequest): BrokerToolProviderReply<GetQuoteOutput> =
        TODO("implement the tool get_quote")

    override fun placeOrder(input: PlaceOrderInput, request: CetpProviderRequest): BrokerToolProviderReply<PlaceOrderOutput> =
        TODO("implement the tool place_order")
}
